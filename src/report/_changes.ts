/**
 * The report's changes since an earlier tree (`compareSitemapTrees()`):
 * the counts, the sitemaps that changed or could not be read this time, and
 * the first pages of each kind of change.
 *
 * @module
 */
import type {
  PageChange,
  SitemapChange,
  SitemapChangeKind,
  SitemapChanges,
  SitemapChangeTally,
} from "../changes.ts";
import { formatCount } from "../format/_units.ts";
import { type Html, linkTo, markup } from "./_html.ts";

const KINDS: readonly SitemapChangeKind[] = ["added", "removed", "changed", "unavailable"];

/** Sitemap changes listed at most; a site has few, a crawl trap many. */
const SITEMAP_ROWS = 200;

const HEADINGS: Readonly<Record<SitemapChangeKind, string>> = {
  added: "Pages added",
  removed: "Pages removed",
  changed: "Pages changed",
  unavailable: "Pages unavailable (their sitemap could not be read this time)",
};

/** The first `shown` page changes of each kind, reading no further than needed. */
function firstPages(
  changes: SitemapChanges,
  shown: number,
): Record<SitemapChangeKind, PageChange[]> {
  const lists: Record<SitemapChangeKind, PageChange[]> = {
    added: [],
    removed: [],
    changed: [],
    unavailable: [],
  };
  let wanted = KINDS.reduce((n, k) => n + Math.min(shown, changes.counts.pages[k]), 0);
  if (wanted === 0) return lists;
  for (const change of changes.pages()) {
    const list = lists[change.change];
    if (list.length >= shown) continue;
    list.push(change);
    if (--wanted === 0) break;
  }
  return lists;
}

function tallyRow(what: string, t: SitemapChangeTally): Html {
  const cells = [...KINDS, "unchanged" as const].map((k) =>
    markup`<td class="num${t[k] > 0 ? ` change-${k}` : ""}">${formatCount(t[k])}</td>`
  );
  return markup`<tr><th scope="row">${what}</th>${cells}</tr>`;
}

function pageItem(change: PageChange): Html {
  let detail: Html | "" = "";
  if (change.change === "changed") {
    const moved = change.previousSitemap === null ? "" : `; was in ${change.previousSitemap}`;
    detail = markup` <span class="muted">(${change.fields.join(", ")}${moved})</span>`;
  } else if (change.change === "unavailable" && change.reason !== null) {
    detail = markup` <span class="muted">(${change.reason})</span>`;
  }
  return markup`<li>${linkTo(change.page)}${detail}</li>`;
}

function sitemapRow(change: SitemapChange): Html {
  const { before, after } = change;
  const type = before !== null && after !== null && before.type !== after.type
    ? `${before.type} → ${after.type}`
    : (after ?? before)?.type ?? "";
  const reason = change.reason ?? after?.reason ?? "";
  return markup`<tr><td class="change-${change.change}">${change.change}</td><td class="url">${
    linkTo(change.sitemap)
  }</td><td>${type}</td><td>${reason}</td></tr>`;
}

function sitemapTable(changes: SitemapChanges): Html | "" {
  const rows: Html[] = [];
  let more = 0;
  for (const change of changes.sitemaps()) {
    if (rows.length < SITEMAP_ROWS) rows.push(sitemapRow(change));
    else more++;
  }
  if (rows.length === 0) return "";
  const rest = more > 0 ? markup`<p class="note">… and ${formatCount(more)} more.</p>` : "";
  return markup`<h3>Sitemaps</h3><table id="sitemap-changes"><thead><tr><th>Change</th><th>Sitemap</th><th>Type</th><th>Reason</th></tr></thead><tbody>${rows}</tbody></table>${rest}`;
}

function pageLists(changes: SitemapChanges, shown: number): Html[] {
  const pages = changes.counts.pages;
  const lists = firstPages(changes, shown);
  return KINDS.filter((k) => pages[k] > 0).map((k) => {
    const first = lists[k].length < pages[k] ? `first ${formatCount(lists[k].length)} of ` : "";
    return markup`<h3>${HEADINGS[k]}: ${first}${
      formatCount(pages[k])
    }</h3><ol class="sample" id="pages-${k}">${lists[k].map(pageItem)}</ol>`;
  });
}

/**
 * The changes section's content.
 *
 * @param changes The comparison of the earlier tree with this one.
 * @param shown Pages listed per kind of change.
 * @returns The markup.
 */
export function changesContent(changes: SitemapChanges, shown: number): Html {
  const { pages, sitemaps, fields } = changes.counts;
  const outage = changes.unreachable === null
    ? ""
    : markup`<p class="reason">${changes.unreachable}: no page is counted as removed.</p>`;
  const heads = [...KINDS, "unchanged"].map((k) => markup`<th class="num">${k}</th>`);
  const counts = markup`<table id="change-counts"><thead><tr><th></th>${heads}</tr></thead><tbody>${
    tallyRow("Pages", pages)
  }${tallyRow("Sitemaps", sitemaps)}</tbody></table>`;
  if (changes.size === 0) return markup`${counts}<p>Nothing changed.</p>`;
  const changed = Object.entries(fields).filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${formatCount(n)}`).join(", ");
  const fieldLine = changed === "" ? "" : markup`<p class="note">Changed fields: ${changed}.</p>`;
  return markup`${outage}${counts}${fieldLine}${sitemapTable(changes)}${pageLists(changes, shown)}`;
}
