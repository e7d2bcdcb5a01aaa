import { deepStrictEqual } from "node:assert/strict";
import { detectChallenge } from "../src/challenge.ts";

/**
 * Responses written for these tests, each shaped like the recorded response
 * cited beside its marker in src/challenge.ts (headers kept to the ones that
 * matter, bodies cut to their first lines).
 */
const FIXTURES: Readonly<
  Record<string, { status: number; headers: Record<string, string>; body: string }>
> = {
  "Cloudflare header": {
    status: 403,
    headers: { "cf-mitigated": "challenge", server: "cloudflare", "content-type": "text/html" },
    body: "<!DOCTYPE html><html><head><title>Just a moment...</title>",
  },
  "Cloudflare interstitial": {
    status: 403,
    headers: { server: "cloudflare", "cf-ray": "98f91258ad66d6d5-IAD" },
    body: '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>' +
      '<meta http-equiv="Content-Type" content="text/html; charset=UTF-8">' +
      '<meta name="robots" content="noindex,nofollow"></head><body>' +
      "<script>(function(){window._cf_chl_opt={cvId: '3'};}());</script></body></html>",
  },
  "Cloudflare block page": {
    status: 403,
    headers: { server: "cloudflare", "cf-ray": "6228dc73e9e8d65d-MAD" },
    body: "<!DOCTYPE html>\n<head>\n<title>Attention Required! | Cloudflare</title>\n" +
      '<meta content="noindex, nofollow" name="robots"/>\n</head><body><div id="cf-wrapper">' +
      '<h1 data-translate="block_headline">Sorry, you have been blocked</h1>',
  },
  DataDome: {
    status: 403,
    headers: { "content-type": "text/html;charset=utf-8", "set-cookie": "datadome=abc; Path=/" },
    body: "<html><head><title>example.com</title></head><body>" +
      "<script>var dd={'rt':'c','cid':'AHrlqAAAAAMA','hsh':'2211F5','t':'fe','s':45587," +
      "'host':'geo.captcha-delivery.com'}</script>" +
      '<script src="https://ct.captcha-delivery.com/c.js"></script></body></html>',
  },
  "HUMAN (PerimeterX)": {
    status: 403,
    headers: { "content-type": "text/html" },
    body:
      '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta name="description" content="px-captcha">\n' +
      "<title>Access to this page has been denied</title>\n</head>\n<body>\n<script>\n" +
      "window._pxAppId = 'PXaOtQIWNf';\nwindow._pxJsClientSrc = '/aOtQIWNf/init.js';\n",
  },
  Akamai: {
    status: 403,
    headers: { server: "AkamaiGHost", "mime-version": "1.0", "content-type": "text/html" },
    body: "<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \n" +
      'You don\'t have permission to access "http://www.example.com/sitemap.xml" on this server.' +
      "<P>\nReference&#32;&#35;18&#46;2f580317&#46;1772098100&#46;2b6a23ca\n<P>" +
      "https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;2f580317\n</BODY>\n</HTML>\n",
  },
  "Akamai, plain reference": {
    status: 403,
    headers: { server: "AkamaiGHost" },
    body: "<html><head>\n<title>Access Denied</title>\n</head><body>\n<h1>Access Denied</h1>\n \n" +
      'You don\'t have permission to access "http://www.example.com/" on this server.<p>\n' +
      "Reference #18.ef3a2f17.1619133194.15bcf105\n</p></body>\n</html>\n",
  },
  Sucuri: {
    status: 403,
    headers: { server: "Sucuri/Cloudproxy", "x-sucuri-id": "12013", "x-sucuri-block": "EVA079" },
    body: '<!DOCTYPE html>\n<html lang="en" xmlns="http://www.w3.org/1999/xhtml">\n<head>\n' +
      '<link href="https://cdn.sucuri.net/sucuri-firewall-block.css" rel="stylesheet"/>\n' +
      "<title>Sucuri WebSite Firewall - Access Denied</title>\n",
  },
  "Imperva block page": {
    status: 403,
    headers: { "x-cdn": "Imperva", "content-type": "text/html" },
    body: '<html style="height:100%"><head><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW">' +
      '</head><body style="margin:0px;height:100%"><iframe id="main-iframe" ' +
      'src="/_Incapsula_Resource?CWUDNSAI=23&xinfo=8-12690372-0%200NNN&incident_id=' +
      '1317000480108838437-60866296814291207&edet=12" frameborder=0>Request unsuccessful. ' +
      "Incapsula incident ID: 1317000480108838437-60866296814291207</iframe></body></html>",
  },
  "Imperva challenge": {
    status: 403,
    headers: { "content-type": "text/html" },
    body: '<html>\n<head>\n<META NAME="robots" CONTENT="noindex,nofollow">\n' +
      '<script src="/_Incapsula_Resource?SWJIYLWA=5074a744e2e3d891814e9a2dace20bd4,719d34d31c8e3a6e">\n' +
      "</script>\n<body>\n</body></html>",
  },
};

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
