/**
 * `detectChallenge()`: tells a bot wall (a challenge or block page served by
 * a bot-protection vendor) from the document that was asked for, so that a
 * site behind one reads as "blocked", not as "publishes no sitemap".
 *
 * Only markers that the vendor documents, or that recorded responses show,
 * are used; each is cited beside it. Body markers count only on an error
 * status (4xx or 5xx): the same scripts appear on pages served normally, and
 * a plain 403, 404 or 503 without a marker is not a challenge.
 *
 * @module
 */

/** A bot wall recognised in a response. */
export interface Challenge {
  /** The vendor: `Cloudflare`, `DataDome`, `HUMAN (PerimeterX)`, `Akamai`, `Sucuri`, `Imperva`. */
  readonly vendor: string;
  /** One line for an `InvalidSitemap`, e.g. `Blocked by a Cloudflare challenge (403)`. */
  readonly reason: string;
}

/** How much of the body is looked at: every marker sits in the first kilobytes of its page. */
export const CHALLENGE_SNIFF_BYTES = 32 * 1024;

const LATIN1 = new TextDecoder("windows-1252");

function bodyText(bodyStart: Uint8Array | string): string {
  if (typeof bodyStart === "string") return bodyStart.slice(0, CHALLENGE_SNIFF_BYTES);
  return LATIN1.decode(bodyStart.subarray(0, CHALLENGE_SNIFF_BYTES));
}

function header(headers: Headers, name: string): string {
  return (headers.get(name) ?? "").toLowerCase();
}

function challenge(vendor: string, reason: string): Challenge {
  return { vendor, reason };
}

/** What a body marker rule sees. */
interface Seen {
  readonly status: number;
  readonly headers: Headers;
  /** The start of the body, as written. */
  readonly body: string;
  /** The same, lower-cased. */
  readonly lower: string;
}

/** Markers found on error responses, in order. */
const BODY_RULES: readonly ((seen: Seen) => Challenge | null)[] = [
  // Cloudflare's interstitial: `<title>Just a moment...</title>` on a 403/503, with the
  // challenge script's `_cf_chl_opt` / `/cdn-cgi/challenge-platform/` or `Server: cloudflare`.
  // Recorded: https://github.com/mandatoryprogrammer/thermoptic/issues/17,
  // https://github.com/JimmyLaurent/cloudflare-scraper/issues/51; its status:
  // https://developers.cloudflare.com/rules/custom-errors/reference/error-page-types/
  ({ status, headers, lower }) =>
    (lower.includes("<title>just a moment...</title>") ||
        lower.includes("<title>just a moment\u2026</title>")) &&
      (lower.includes("_cf_chl_opt") || lower.includes("/cdn-cgi/challenge-platform/") ||
        header(headers, "server") === "cloudflare")
      ? challenge("Cloudflare", `Blocked by a Cloudflare challenge (${status})`)
      : null,
  // Cloudflare's block page ("Attention Required! | Cloudflare", "Sorry, you have been
  // blocked"), served by Cloudflare itself. Recorded:
  // https://github.com/Ekultek/WhatWaf/issues/1040, https://github.com/Ekultek/WhatWaf/issues/10
  ({ status, headers, lower }) =>
    header(headers, "server") === "cloudflare" &&
      (lower.includes("<title>attention required! | cloudflare</title>") ||
        lower.includes("sorry, you have been blocked"))
      ? challenge("Cloudflare", `Blocked by Cloudflare's firewall (${status})`)
      : null,
  // DataDome answers a blocked request 401/403 with a page that loads its captcha or device
  // check from captcha-delivery.com. https://docs.datadome.co/reference/validate-request,
  // https://github.com/MoterHaker/bypass-captcha-examples/issues/17
  ({ status, lower }) =>
    lower.includes("captcha-delivery.com")
      ? challenge("DataDome", `Blocked by a DataDome challenge (${status})`)
      : null,
  // HUMAN (PerimeterX): its block page ("Access to this page has been denied", 403) carries
  // `px-captcha` and `window._pxAppId`. https://github.com/0xjas0/Chegg-Answer-Bot/issues/34,
  // https://github.com/PerimeterX/mod_perimeterx/pull/19
  ({ status, lower }) =>
    lower.includes("px-captcha") || lower.includes("window._pxappid")
      ? challenge("HUMAN (PerimeterX)", `Blocked by a HUMAN (PerimeterX) challenge (${status})`)
      : null,
  // Akamai's edge denial: "Access Denied … Reference #18.…" from `Server: AkamaiGHost`, the
  // reference linking to errors.edgesuite.net. https://github.com/Ekultek/WhatWaf/issues/1162,
  // https://github.com/netbirdio/netbird/issues/3670
  ({ status, headers, body, lower }) => {
    const edge = header(headers, "server") === "akamaighost" && lower.includes("access denied");
    if (!edge && !lower.includes("errors.edgesuite.net")) return null;
    // The reference, written plainly or with its punctuation as character references.
    const reference = /Reference\s*(?:&#32;)?(?:#|&#35;)\s*((?:[0-9a-f.]|&#46;)+)/i.exec(body)?.[1]
      ?.replaceAll("&#46;", ".");
    return challenge(
      "Akamai",
      `Blocked by Akamai (${status} Access Denied${
        reference === undefined ? "" : `, reference ${reference}`
      })`,
    );
  },
  // Sucuri's firewall: `X-Sucuri-Block` (the rule, e.g. EVA079) and the "Sucuri WebSite
  // Firewall - Access Denied" page. https://github.com/Ekultek/WhatWaf/issues/1164,
  // https://github.com/D4-project/Plum-Island/issues/121
  ({ status, headers, lower }) => {
    const rule = headers.get("x-sucuri-block");
    if (rule === null && !lower.includes("sucuri website firewall - access denied")) return null;
    return challenge(
      "Sucuri",
      `Blocked by the Sucuri firewall (${status}${rule === null ? "" : `, rule ${rule}`})`,
    );
  },
  // Imperva (Incapsula): the block page "Request unsuccessful. Incapsula incident ID: …", and
  // the JavaScript challenge served from /_Incapsula_Resource (which ordinary pages also load,
  // hence error statuses only). https://scrappey.com/qa/web-automation/how-imperva-detects-bots,
  // https://github.com/ziplokk1/incapsula-cracker-py3/issues/20,
  // https://github.com/webrecorder/browsertrix-crawler/issues/1135
  ({ status, body, lower }) => {
    if (lower.includes("incapsula incident id")) {
      const incident = /Incapsula incident ID:?\s*([0-9A-Za-z-]+)/i.exec(body)?.[1];
      return challenge(
        "Imperva",
        `Blocked by Imperva (${status}${incident === undefined ? "" : `, incident ${incident}`})`,
      );
    }
    return lower.includes("/_incapsula_resource")
      ? challenge("Imperva", `Blocked by an Imperva challenge (${status})`)
      : null;
  },
];

/**
 * Whether a response is a bot-protection vendor's challenge or block page
 * rather than the document asked for. Cloudflare's `cf-mitigated:
 * challenge` header counts on any status; the page markers of Cloudflare,
 * DataDome, HUMAN (PerimeterX), Akamai, Sucuri and Imperva only on a 4xx
 * or 5xx.
 *
 * @param status The HTTP status.
 * @param headers The response headers.
 * @param bodyStart The start of the body (the first {@linkcode CHALLENGE_SNIFF_BYTES} are read).
 * @returns The vendor and a reason such as `Blocked by a Cloudflare challenge (403)`, or null.
 *
 * @example Cloudflare's header
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { detectChallenge } from "./challenge.ts";
 *
 * const headers = new Headers({ "cf-mitigated": "challenge", server: "cloudflare" });
 * deepStrictEqual(detectChallenge(403, headers, "<!DOCTYPE html>"), {
 *   vendor: "Cloudflare",
 *   reason: "Blocked by a Cloudflare challenge (403)",
 * });
 * strictEqual(detectChallenge(403, new Headers({ server: "nginx" }), "Forbidden"), null);
 * ```
 */
export function detectChallenge(
  status: number,
  headers: Headers,
  bodyStart: Uint8Array | string,
): Challenge | null {
  // "For the cf-mitigated header, challenge is the only valid value. The header is set for all
  // Challenge Page types." https://developers.cloudflare.com/cloudflare-challenges/challenge-types/challenge-pages/detect-response/
  if (header(headers, "cf-mitigated") === "challenge") {
    return challenge("Cloudflare", `Blocked by a Cloudflare challenge (${status})`);
  }
  if (status < 400) return null;
  const body = bodyText(bodyStart);
  const seen: Seen = { status, headers, body, lower: body.toLowerCase() };
  for (const rule of BODY_RULES) {
    const found = rule(seen);
    if (found !== null) return found;
  }
  return null;
}
