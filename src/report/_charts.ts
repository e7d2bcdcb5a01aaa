/**
 * The report's two charts as inline SVG: pages by lastmod month (vertical
 * bars) and pages per section (horizontal bars). Each has a `<title>` and a
 * `<desc>` that a screen reader reads as the image's name and description,
 * a `<title>` per bar (a tooltip too), and labelled axes.
 *
 * @module
 */
import { stripOrigin } from "../format/tab_tree.ts";
import type { LastmodHistogram } from "../_lastmod_buckets.ts";
import type { SitemapSection } from "../_page_inventory.ts";
import { formatCount } from "../format/_units.ts";
import { type Html, markup } from "./_html.ts";

/** Sections drawn one bar each; the rest share one "other" bar. */
export const CHART_SECTIONS = 12;

const WIDTH = 860;

/** Coordinates with one decimal: enough for a screen, short in the file. */
function px(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Gridline steps of 1, 2 or 5 times a power of ten, about four of them up to `max`. */
function axisSteps(max: number): number[] {
  const raw = Math.max(1, max) / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  const step = Math.max(1, (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * magnitude);
  const steps: number[] = [];
  for (let v = 0; v < max + step; v += step) {
    steps.push(v);
    if (v >= max) break;
  }
  return steps;
}

/**
 * A share as a percentage with one decimal; a share too small for that is `<0.1%`.
 *
 * @param share From 0 to 1.
 * @returns E.g. `41.7%`.
 */
export function formatShare(share: number): string {
  return share > 0 && share < 0.0005 ? "<0.1%" : `${(share * 100).toFixed(1)}%`;
}

function pages(n: number): string {
  return `${formatCount(n)} page${n === 1 ? "" : "s"}`;
}

interface Bar {
  readonly label: string;
  readonly tick: string;
  readonly pages: number;
  readonly muted: boolean;
}

/** The `<svg>` element around a chart's parts, named and described for screen readers. */
function chart(id: string, height: number, title: string, desc: string, parts: Html[]): Html {
  return markup`<svg class="chart" id="${id}-chart" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="${id}-title ${id}-desc">
<title id="${id}-title">${title}</title>
<desc id="${id}-desc">${desc}</desc>
${parts}
</svg>`;
}

/** An axis title; `rotate` turns it to read upwards. */
function axisTitle(x: number, y: number, text: string, rotate = false): Html {
  return rotate
    ? markup`<text class="axis-title" transform="translate(${px(x)} ${
      px(y)
    }) rotate(-90)" text-anchor="middle">${text}</text>\n`
    : markup`<text class="axis-title" x="${px(x)}" y="${
      px(y)
    }" text-anchor="middle">${text}</text>\n`;
}

/** What the histogram's description says: the span, the busiest bucket, the undated. */
function histogramDesc(histogram: LastmodHistogram): string {
  const { buckets } = histogram;
  let busiest = buckets[0];
  for (const b of buckets) if (b.pages > busiest!.pages) busiest = b;
  const span = buckets.length === 0
    ? ""
    : `, from ${buckets[0]!.label} to ${buckets[buckets.length - 1]!.label}`;
  const most = busiest === undefined
    ? ""
    : `; the most in ${busiest.label}, ${pages(busiest.pages)}`;
  return `${pages(histogram.pages - histogram.undated)} with a lastmod${span}${most}; ${
    pages(histogram.undated)
  } without a lastmod. One bar per ${histogram.unit}.`;
}

/**
 * Pages by lastmod month (or year) as a bar chart, pages without a lastmod
 * as a last, grey bar.
 *
 * @param histogram The buckets.
 * @returns The chart, or a note when no page was counted.
 */
export function histogramChart(histogram: LastmodHistogram): Html {
  const bars: Bar[] = histogram.buckets.map((b) => ({
    label: b.label,
    // A folded run of empty months has a long label: its tooltip says it.
    tick: b.label.includes("–") ? "…" : b.label,
    pages: b.pages,
    muted: false,
  }));
  if (histogram.undated > 0) {
    bars.push({ label: "no lastmod", tick: "no date", pages: histogram.undated, muted: true });
  }
  if (bars.length === 0) return markup`<p class="note">No pages to chart.</p>`;
  const height = 290;
  const [left, right, top, bottom] = [68, 16, 14, 70];
  const plotW = WIDTH - left - right;
  const plotH = height - top - bottom;
  const steps = axisSteps(Math.max(...bars.map((b) => b.pages)));
  const yMax = steps[steps.length - 1]!;
  const y = (v: number) => px(top + plotH - (v / yMax) * plotH);
  // The undated bar stands apart from the timeline by half a band.
  const gap = histogram.undated > 0 && histogram.buckets.length > 0 ? 0.5 : 0;
  const band = plotW / (bars.length + gap);
  const barW = Math.max(1, band * 0.78);
  const every = Math.max(1, Math.ceil(58 / band));
  const grid = steps.map((v) =>
    markup`<line class="grid" x1="${left}" x2="${WIDTH - right}" y1="${y(v)}" y2="${
      y(v)
    }"/><text x="${left - 8}" y="${y(v) + 4}" text-anchor="end">${formatCount(v)}</text>\n`
  );
  const columns = bars.map((bar, i) => {
    const x = left + (i + (bar.muted ? gap : 0)) * band;
    const tick = bar.muted || i % every === 0
      ? markup`<text x="${px(x + band / 2)}" y="${
        y(0) + 16
      }" text-anchor="middle">${bar.tick}</text>`
      : "";
    return markup`<g><rect class="bar${bar.muted ? " bar-muted" : ""}" x="${
      px(x + (band - barW) / 2)
    }" y="${y(bar.pages)}" width="${px(barW)}" height="${
      px(y(0) - y(bar.pages))
    }"><title>${bar.label}: ${pages(bar.pages)}</title></rect>${tick}</g>\n`;
  });
  return chart(
    "histogram",
    height,
    `Pages by lastmod ${histogram.unit} (UTC)`,
    histogramDesc(histogram),
    [
      ...grid,
      markup`<line class="axis" x1="${left}" x2="${WIDTH - right}" y1="${y(0)}" y2="${y(0)}"/>\n`,
      ...columns,
      axisTitle(left + plotW / 2, height - 14, `Last modified (${histogram.unit}, UTC)`),
      axisTitle(16, top + plotH / 2, "Pages", true),
    ],
  );
}

/** The biggest sections, one bar each, and the rest summed in one bar. */
function sectionBars(sections: readonly SitemapSection[], origin: string): Bar[] {
  const sorted = [...sections].sort((a, b) => b.pages - a.pages);
  const bars: Bar[] = sorted.slice(0, CHART_SECTIONS).map((s) => ({
    label: stripOrigin(s.prefix, origin),
    tick: shorten(stripOrigin(s.prefix, origin), 34),
    pages: s.pages,
    muted: false,
  }));
  const rest = sorted.slice(CHART_SECTIONS);
  if (rest.length > 0) {
    const label = `${formatCount(rest.length)} other section${rest.length === 1 ? "" : "s"}`;
    const sum = rest.reduce((n, s) => n + s.pages, 0);
    bars.push({ label, tick: label, pages: sum, muted: true });
  }
  return bars;
}

/**
 * The biggest sections as horizontal bars, the rest summed in one "other" bar.
 *
 * @param sections The sections.
 * @param origin The site's origin, left out of the labels.
 * @returns The chart, or a note when there are no sections.
 */
export function sectionsChart(sections: readonly SitemapSection[], origin: string): Html {
  if (sections.length === 0) return markup`<p class="note">No pages to chart.</p>`;
  const bars = sectionBars(sections, origin);
  const total = sections.reduce((n, s) => n + s.pages, 0);
  const [left, right, top, bottom, row] = [240, 120, 8, 50, 26];
  const height = top + bars.length * row + bottom;
  const plotW = WIDTH - left - right;
  const steps = axisSteps(Math.max(...bars.map((b) => b.pages)));
  const xMax = steps[steps.length - 1]!;
  const x = (v: number) => px(left + (v / xMax) * plotW);
  const axisY = top + bars.length * row;
  const grid = steps.map((v) =>
    markup`<line class="grid" x1="${x(v)}" x2="${x(v)}" y1="${top}" y2="${axisY}"/><text x="${
      x(v)
    }" y="${axisY + 16}" text-anchor="middle">${formatCount(v)}</text>\n`
  );
  const rows = bars.map((bar, i) => {
    const y = top + i * row;
    const share = formatShare(total === 0 ? 0 : bar.pages / total);
    return markup`<g><text x="${left - 8}" y="${
      y + row / 2 + 4
    }" text-anchor="end">${bar.tick}</text><rect class="bar${
      bar.muted ? " bar-muted" : ""
    }" x="${left}" y="${y + 4}" width="${px(x(bar.pages) - left)}" height="${
      row - 8
    }"><title>${bar.label}: ${pages(bar.pages)} (${share})</title></rect><text class="value" x="${
      x(bar.pages) + 6
    }" y="${y + row / 2 + 4}">${formatCount(bar.pages)} · ${share}</text></g>\n`;
  });
  const biggest = bars[0]!;
  const desc = `${formatCount(sections.length)} section${
    sections.length === 1 ? "" : "s"
  }; the biggest is ${biggest.label} with ${pages(biggest.pages)} (${
    formatShare(total === 0 ? 0 : biggest.pages / total)
  }). One bar per section${
    bars.length > CHART_SECTIONS ? ", the smallest summed in the last bar" : ""
  }.`;
  return chart("sections", height, "Pages per section", desc, [
    ...grid,
    markup`<line class="axis" x1="${left}" x2="${left}" y1="${top}" y2="${axisY}"/>\n`,
    ...rows,
    axisTitle(left + plotW / 2, height - 10, "Pages"),
  ]);
}

/**
 * `text` cut to `max` characters with an ellipsis in the middle, which keeps
 * both a path's start and its last segment.
 *
 * @param text Any text.
 * @param max Most characters kept.
 * @returns The text, shortened when longer.
 */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) / 2);
  return text.slice(0, head) + "…" + text.slice(text.length - (max - 1 - head));
}
