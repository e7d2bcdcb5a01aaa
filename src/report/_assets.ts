/**
 * The report's own style sheet and script, and the Content-Security-Policy
 * that allows exactly those two (by SHA-256 hash) and nothing else: no
 * other script, style, font, image, frame or connection, so nothing a site
 * put into its sitemaps can run or load, even if it escaped as markup.
 *
 * @module
 */
import { createHash } from "node:crypto";

/** System fonts only: a web font would be a request, and the file must work offline. */
export const STYLE = `
:root {
  --ink: #18202b; --muted: #586374; --line: #dde2e8; --bg: #f4f6f8; --card: #fff;
  --accent: #1b5fc1; --bar: #3a78d4; --bar-muted: #a3adba;
  --ok: #17703f; --ok-bg: #e2f3e9; --warn: #8f5300; --warn-bg: #fdf0d9;
  --err: #b1261d; --err-bg: #fbe5e3;
  color-scheme: light;
}
* { box-sizing: border-box; }
html {
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
    "Noto Sans", "DejaVu Sans", sans-serif;
  color: var(--ink); background: var(--bg);
}
body { margin: 0; }
header, main, footer { max-width: 1120px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 36px; padding-bottom: 4px; }
footer { color: var(--muted); font-size: .82rem; padding-bottom: 36px; }
h1 { font-size: 1.75rem; line-height: 1.25; margin: 0 0 6px; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 0 0 14px; }
h3 { font-size: 1rem; margin: 20px 0 8px; }
p { margin: 6px 0; }
a { color: var(--accent); }
.muted, .note { color: var(--muted); }
.note { font-size: .88rem; }
section {
  background: var(--card); border: 1px solid var(--line); border-radius: 10px;
  padding: 22px 26px; margin: 18px 0;
}
.url, code {
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace;
  font-size: .86em; overflow-wrap: anywhere;
}
.facts { display: flex; flex-wrap: wrap; gap: 6px 22px; margin: 8px 0 0; }
.facts div { display: flex; gap: 6px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; }
.outcome { display: inline-block; padding: 2px 10px; border-radius: 999px; font-weight: 650; font-size: .85rem; }
.outcome-ok { background: var(--ok-bg); color: var(--ok); }
.outcome-warn { background: var(--warn-bg); color: var(--warn); }
.outcome-bad { background: var(--err-bg); color: var(--err); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 12px; margin: 0; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 0; }
.card dt { color: var(--muted); font-size: .82rem; }
.card dd { margin: 0; font-size: 1.45rem; font-weight: 650; font-variant-numeric: tabular-nums; }
.card dd small { display: block; font-size: .8rem; font-weight: 400; color: var(--muted); }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
caption { text-align: left; color: var(--muted); font-size: .85rem; padding-bottom: 4px; }
th, td { text-align: left; padding: 6px 10px 6px 0; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: .82rem; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.controls { display: flex; gap: 8px; margin: 0 0 10px; }
.controls[hidden] { display: none; }
button {
  font: inherit; font-size: .85rem; padding: 3px 12px; border: 1px solid var(--line);
  border-radius: 6px; background: var(--card); color: var(--ink); cursor: pointer;
}
button:focus-visible, summary:focus-visible, a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.tree ul { list-style: none; margin: 0; padding: 0 0 0 20px; border-left: 1px solid var(--line); }
.tree > ul { padding-left: 0; border-left: 0; }
.tree li { margin: 2px 0; }
.tree summary { cursor: pointer; padding: 2px 4px; border-radius: 4px; }
.tree summary:hover { background: var(--bg); }
.leaf { padding: 2px 4px 2px 22px; }
.node { display: inline; }
.type {
  display: inline-block; min-width: 4.6em; text-align: center; font-size: .7rem; font-weight: 700;
  letter-spacing: .02em; padding: 0 6px; margin-right: 2px;
  border-radius: 4px; background: #e6edf8; color: #24487c; vertical-align: 1px;
}
.type-invalid { background: var(--err-bg); color: var(--err); }
.type-website { background: #ece7f7; color: #4b2f86; }
.meta { color: var(--muted); font-size: .85rem; font-variant-numeric: tabular-nums; margin-left: 4px; }
.reason { color: var(--err); font-size: .88rem; margin-left: 4px; }
.sample { margin: 2px 0 10px; padding-left: 46px; font-size: .86rem; }
.sample li { margin: 0; overflow-wrap: anywhere; }
.more { list-style: none; color: var(--muted); }
.chart { display: block; width: 100%; max-width: 860px; height: auto; margin: 4px 0 8px; }
.chart text { font-size: 11px; fill: var(--muted); }
.chart .axis-title { font-size: 12px; fill: var(--ink); }
.chart .grid { stroke: var(--line); stroke-width: 1; }
.chart .axis { stroke: var(--muted); stroke-width: 1; }
.chart .bar { fill: var(--bar); }
.chart .bar-muted { fill: var(--bar-muted); }
.chart .value { fill: var(--ink); }
.sev-error { color: var(--err); font-weight: 600; }
.sev-warning { color: var(--warn); font-weight: 600; }
.change-added { color: var(--ok); }
.change-removed, .change-unavailable { color: var(--err); }
.change-changed { color: var(--warn); }
details.data { margin: 4px 0 14px; }
details.data > summary { cursor: pointer; color: var(--accent); font-size: .88rem; }
@media (max-width: 640px) {
  header, main, footer { padding: 0 12px; }
  section { padding: 16px; }
}
@media print {
  html { background: #fff; font-size: 12px; }
  header, main, footer { max-width: none; padding: 0; }
  section { border: 0; border-radius: 0; padding: 0; margin: 0 0 18px; }
  h2 { break-after: avoid; }
  .controls { display: none; }
  a { color: inherit; text-decoration: none; }
  details::details-content { content-visibility: visible; display: block; }
  .chart, tr, .card { break-inside: avoid; }
}
`;

/**
 * Expand-all and collapse-all buttons for the tree, and every collapsed
 * node opened while printing (closed again after) in browsers that do not
 * open them from the print style sheet.
 */
export const SCRIPT = `
(() => {
  const all = () => document.querySelectorAll("details");
  for (const button of document.querySelectorAll("button[data-open]")) {
    const open = button.dataset.open === "true";
    button.addEventListener("click", () => { for (const d of all()) d.open = open; });
  }
  const controls = document.querySelector(".controls");
  if (controls) controls.hidden = false;
  let opened = [];
  addEventListener("beforeprint", () => {
    opened = [...all()].filter((d) => !d.open);
    for (const d of opened) d.open = true;
  });
  addEventListener("afterprint", () => {
    for (const d of opened) d.open = false;
    opened = [];
  });
})();
`;

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

let policy: string | null = null;

/**
 * The page's Content-Security-Policy: nothing by default, the style sheet
 * and the script by their hashes, no base URL and no form target.
 *
 * @returns The policy, for a `<meta http-equiv>` tag.
 */
export function contentSecurityPolicy(): string {
  policy ??= `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${
    sha256(SCRIPT)
  }; base-uri 'none'; form-action 'none'`;
  return policy;
}
