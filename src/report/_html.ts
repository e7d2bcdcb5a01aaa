/**
 * Markup that escapes by default: the `markup` template tag escapes every
 * value put into it unless the value is markup made by `markup` itself, so a
 * value from a site (a URL, a reason, a title, a status text) can only ever
 * become text.
 *
 * @module
 */

/** Markup built by {@linkcode markup}: inserted as is into other markup. */
export class Html {
  /** The markup. */
  readonly text: string;

  /** @param text Markup that is already safe. */
  constructor(text: string) {
    this.text = text;
  }

  /** @returns The markup. */
  toString(): string {
    return this.text;
  }
}

/** What a template value may be: text (escaped), markup, a number, a list of them, or nothing. */
export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text as HTML text or attribute value: `&`, `<`, `>`, `"` and `'` escaped.
 *
 * @param text Any text.
 * @returns The text, safe in element content and in quoted attributes.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.text;
  if (value === null || value === undefined || value === false) return "";
  if (typeof value === "string") return escapeHtml(value);
  if (typeof value === "number") return escapeHtml(String(value));
  let out = "";
  for (const item of value) out += render(item);
  return out;
}

/**
 * The template tag: literal parts are the report's own markup; every
 * value is escaped unless it is {@linkcode Html}. Lists are joined;
 * null, undefined and false render as nothing.
 *
 * @param strings The literal parts.
 * @param values The values.
 * @returns The markup.
 */
export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/**
 * A link to `url` when it is an http(s) URL, else the URL as text: a
 * `javascript:` or `data:` value from a sitemap never becomes a link. (The
 * page's `no-referrer` policy covers every link; no `rel` is needed per link.)
 *
 * @param url A URL from the site.
 * @param label What to show; the URL itself when absent.
 * @returns The markup.
 */
export function linkTo(url: string, label: string = url): Html {
  return /^https?:\/\//i.test(url)
    ? markup`<a href="${url}">${label}</a>`
    : markup`<span>${label}</span>`;
}
