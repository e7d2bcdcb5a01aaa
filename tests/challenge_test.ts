import { deepStrictEqual } from "node:assert/strict";
import { detectChallenge } from "../src/challenge.ts";
import { BOT_WALLS } from "../fixtures/bot_walls.ts";

const FIXTURES = BOT_WALLS;

Deno.test("detectChallenge() names the vendor of each challenge or block page", () => {
  const found = Object.entries(FIXTURES).map(([name, { status, headers, body }]) => [
    name,
    detectChallenge(status, new Headers(headers), new TextEncoder().encode(body)),
  ]);
  deepStrictEqual(found, [
    ["Cloudflare header", {
      vendor: "Cloudflare",
      reason: "Blocked by a Cloudflare challenge (403)",
    }],
    ["Cloudflare interstitial", {
      vendor: "Cloudflare",
      reason: "Blocked by a Cloudflare challenge (403)",
    }],
    ["Cloudflare block page", {
      vendor: "Cloudflare",
      reason: "Blocked by Cloudflare's firewall (403)",
    }],
    ["DataDome", { vendor: "DataDome", reason: "Blocked by a DataDome challenge (403)" }],
    ["HUMAN (PerimeterX)", {
      vendor: "HUMAN (PerimeterX)",
      reason: "Blocked by a HUMAN (PerimeterX) challenge (403)",
    }],
    ["Akamai", {
      vendor: "Akamai",
      reason: "Blocked by Akamai (403 Access Denied, reference 18.2f580317.1772098100.2b6a23ca)",
    }],
    ["Akamai, plain reference", {
      vendor: "Akamai",
      reason: "Blocked by Akamai (403 Access Denied, reference 18.ef3a2f17.1619133194.15bcf105)",
    }],
    ["Sucuri", { vendor: "Sucuri", reason: "Blocked by the Sucuri firewall (403, rule EVA079)" }],
    ["Imperva block page", {
      vendor: "Imperva",
      reason: "Blocked by Imperva (403, incident 1317000480108838437-60866296814291207)",
    }],
    ["Imperva challenge", { vendor: "Imperva", reason: "Blocked by an Imperva challenge (403)" }],
  ]);
});

Deno.test("detectChallenge() reads Cloudflare's header on any status, and a string body", () => {
  deepStrictEqual(
    [
      detectChallenge(200, new Headers({ "cf-mitigated": "challenge" }), ""),
      detectChallenge(503, new Headers({ "CF-Mitigated": "Challenge" }), "<html>"),
      detectChallenge(
        403,
        new Headers({ server: "cloudflare" }),
        FIXTURES["Cloudflare interstitial"]!.body,
      ),
    ],
    [
      { vendor: "Cloudflare", reason: "Blocked by a Cloudflare challenge (200)" },
      { vendor: "Cloudflare", reason: "Blocked by a Cloudflare challenge (503)" },
      { vendor: "Cloudflare", reason: "Blocked by a Cloudflare challenge (403)" },
    ],
  );
});

Deno.test("detectChallenge() leaves plain errors and ordinary pages alone", () => {
  const html = (title: string, extra = ""): string =>
    `<!DOCTYPE html><html><head><title>${title}</title>${extra}</head><body></body></html>`;
  const cases: [number, Record<string, string>, string][] = [
    // Plain errors, even behind a vendor's CDN.
    [403, { server: "nginx" }, html("403 Forbidden")],
    [403, { server: "cloudflare", "cf-ray": "1-AMS" }, html("403 Forbidden")],
    [404, { server: "cloudflare" }, html("404 Not Found")],
    [503, { server: "cloudflare" }, html("503 Service Unavailable")],
    [429, {}, "Too Many Requests"],
    [403, { server: "AkamaiGHost" }, html("Forbidden")],
    [403, { "x-sucuri-id": "12013" }, html("Forbidden")],
    [403, { "x-cdn": "Incapsula" }, html("Forbidden")],
    [403, { "set-cookie": "datadome=abc; Path=/" }, html("Forbidden")],
    // A "Just a moment..." title without any Cloudflare sign.
    [503, { server: "apache" }, html("Just a moment...")],
    // Ordinary pages that load a vendor's script: body markers count only on errors.
    [
      200,
      { server: "cloudflare" },
      html("Shop", '<script src="/cdn-cgi/challenge-platform/h/g/scripts/jsd/main.js"></script>'),
    ],
    [
      200,
      {},
      html("Home", '<script src="/_Incapsula_Resource?SWJIYLWA=719d&ns=2" async></script>'),
    ],
    [200, {}, html("Just a moment...", "<script>window._cf_chl_opt={}</script>")],
    [
      200,
      { "content-type": "application/xml" },
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://x.test/px-captcha</loc></url></urlset>',
    ],
  ];
  deepStrictEqual(
    cases.map(([status, headers, body]) => detectChallenge(status, new Headers(headers), body)),
    cases.map(() => null),
  );
});

Deno.test("detectChallenge() reads only the start of a long body", () => {
  const late = "x".repeat(40_000) + "captcha-delivery.com";
  deepStrictEqual(detectChallenge(403, new Headers(), late), null);
  deepStrictEqual(detectChallenge(403, new Headers(), `captcha-delivery.com${late}`), {
    vendor: "DataDome",
    reason: "Blocked by a DataDome challenge (403)",
  });
});
