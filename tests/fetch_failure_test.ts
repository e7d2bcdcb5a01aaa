/**
 * The one-line causes of failures below HTTP, from the shapes Deno, Bun and
 * Node throw (recorded from Deno 2.9.6, Bun 1.4.4 and Node 20 against a closed
 * port, an unknown name and a self-signed certificate), and the fail-fast rule
 * of the web client over real sockets.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import process from "node:process";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { describeFetchError } from "../src/_fetch_failure.ts";
import { REFUSALS_TO_GIVE_UP, WebClient, type WebClientOptions } from "../src/fetch.ts";
import { FixtureSite } from "../fixtures/site.ts";
import { deniedFetch, silentHosts } from "./_tree_helpers.ts";
import { runtimeName, serve } from "../fixtures/serve.ts";

const URL_REFUSED = new URL("http://127.0.0.1:59999/robots.txt");
const URL_UNKNOWN = new URL("http://nonexistent.invalid/robots.txt");
const URL_TLS = new URL("https://localhost:48443/robots.txt");

/** A TypeError("fetch failed") with `cause`, as Deno and undici throw. */
function fetchFailed(cause: Error): TypeError {
  return Object.assign(new TypeError("fetch failed"), { cause });
}

function withCode(error: Error, code: string): Error {
  return Object.assign(error, { code });
}

Deno.test("describeFetchError() reads Deno's errors", () => {
  const deno = (message: string): TypeError =>
    fetchFailed(new Error(`error sending request for url (${URL_TLS.href}): ${message}`));
  assert.deepEqual(
    describeFetchError(
      deno("client error (Connect): tcp connect error: Connection refused (os error 111)"),
      URL_REFUSED,
    ),
    { kind: "refused", cause: "connection refused (127.0.0.1:59999)" },
  );
  assert.deepEqual(
    describeFetchError(
      deno(
        "client error (Connect): dns error: failed to lookup address information: Name or service not known",
      ),
      URL_UNKNOWN,
    ),
    { kind: "host-not-found", cause: "host not found (nonexistent.invalid)" },
  );
  assert.deepEqual(
    describeFetchError(
      deno(
        "client error (Connect): invalid peer certificate: Other(OtherError(CaUsedAsEndEntity))",
      ),
      URL_TLS,
    ),
    {
      kind: "tls",
      cause: "TLS failure (localhost:48443: invalid peer certificate: CaUsedAsEndEntity)",
    },
  );
  // An https request to a plain-HTTP port: rustls reads the server's HTTP
  // answer as a TLS record.
  assert.deepEqual(
    describeFetchError(
      deno("client error (Connect): received corrupt message of type InvalidContentType"),
      URL_TLS,
    ),
    {
      kind: "tls",
      cause: "TLS failure (localhost:48443: received corrupt message of type InvalidContentType)",
    },
  );
  assert.deepEqual(
    describeFetchError(
      deno("client error (Connect): peer is incompatible: Tls12NotOfferedOrEnabled"),
      URL_TLS,
    ),
    {
      kind: "tls",
      cause: "TLS failure (localhost:48443: peer is incompatible: Tls12NotOfferedOrEnabled)",
    },
  );
  const notCapable = new Error(
    'Requires net access to "127.0.0.1:59999", run again with the --allow-net flag',
  );
  notCapable.name = "NotCapable";
  assert.equal(describeFetchError(notCapable, URL_REFUSED).kind, "permission");
});

Deno.test("describeFetchError() reads Bun's errors", () => {
  const bun = (message: string, code: string): Error => withCode(new TypeError(message), code);
  assert.deepEqual(
    describeFetchError(
      bun(
        "ECONNREFUSED: Unable to connect. Is the computer able to access the url?",
        "ECONNREFUSED",
      ),
      URL_REFUSED,
    ),
    { kind: "refused", cause: "connection refused (127.0.0.1:59999)" },
  );
  assert.deepEqual(
    describeFetchError(bun("getaddrinfo ENOTFOUND nonexistent.invalid", "ENOTFOUND"), URL_UNKNOWN),
    { kind: "host-not-found", cause: "host not found (nonexistent.invalid)" },
  );
  assert.deepEqual(
    describeFetchError(bun("self signed certificate", "DEPTH_ZERO_SELF_SIGNED_CERT"), URL_TLS),
    { kind: "tls", cause: "TLS failure (localhost:48443: self signed certificate)" },
  );
  // An https request to a plain-HTTP port.
  assert.deepEqual(
    describeFetchError(
      bun("EPROTO: The TLS handshake failed. Does the server speak TLS on this port?", "EPROTO"),
      URL_TLS,
    ),
    {
      kind: "tls",
      cause:
        "TLS failure (localhost:48443: EPROTO: The TLS handshake failed. Does the server speak TLS on this port?)",
    },
  );
});

Deno.test("describeFetchError() reads Node's undici errors from their cause", () => {
  assert.deepEqual(
    describeFetchError(
      fetchFailed(withCode(new Error("connect ECONNREFUSED 127.0.0.1:59999"), "ECONNREFUSED")),
      URL_REFUSED,
    ),
    { kind: "refused", cause: "connection refused (127.0.0.1:59999)" },
  );
  assert.deepEqual(
    describeFetchError(
      fetchFailed(withCode(new Error("getaddrinfo ENOTFOUND nonexistent.invalid"), "ENOTFOUND")),
      URL_UNKNOWN,
    ),
    { kind: "host-not-found", cause: "host not found (nonexistent.invalid)" },
  );
  assert.deepEqual(
    describeFetchError(
      fetchFailed(withCode(new Error("self-signed certificate"), "DEPTH_ZERO_SELF_SIGNED_CERT")),
      URL_TLS,
    ),
    { kind: "tls", cause: "TLS failure (localhost:48443: self-signed certificate)" },
  );
  assert.deepEqual(
    describeFetchError(
      fetchFailed(withCode(new Error("Connect Timeout Error"), "UND_ERR_CONNECT_TIMEOUT")),
      new URL("https://example.com/"),
    ),
    { kind: "timeout", cause: "timeout while connecting (example.com:443)" },
  );
  assert.deepEqual(
    describeFetchError(
      fetchFailed(new Error("other side closed")),
      new URL("https://example.com/"),
    ),
    { kind: "network", cause: "network error (example.com:443: other side closed)" },
  );
});

function client(overrides: Partial<WebClientOptions> = {}): WebClient {
  return new WebClient({
    userAgent: "sitemap-tree-test/1.0",
    timeoutMs: 2_000,
    retries: 2,
    maxDownloadBytes: 1024 * 1024,
    concurrency: 1,
    ...overrides,
  });
}

/** A port on 127.0.0.1 where nothing listens now. */
async function freePort(): Promise<number> {
  const server = await new FixtureSite().listen();
  await server.close();
  return server.port;
}

Deno.test("WebClient gives a host that never answered up after 3 refusals: later requests send nothing", async () => {
  const port = await freePort();
  const web = client();
  const urls = ["/robots.txt", "/sitemap.xml", "/sitemap_index.xml", "/feed"].map((p) =>
    `http://127.0.0.1:${port}${p}`
  );
  const results = await Promise.all(urls.map((url) => web.get(url)));
  const cause = `connection refused (127.0.0.1:${port})`;
  assert.deepEqual(
    results,
    urls.map((url) => ({
      ok: false,
      url,
      status: null,
      reason: `Unable to fetch sitemap from ${url}: ${cause}`,
      failure: { kind: "refused", cause },
    })),
  );
  assert.equal(REFUSALS_TO_GIVE_UP, 3);
  // One request at a time: robots.txt's first attempt, then (while it waits to
  // retry) sitemap.xml's and sitemap_index.xml's; the third refusal gives the
  // host up, and the retries and /feed send nothing.
  assert.deepEqual([web.stats.requests, web.stats.retries], [3, 2]);
  assert.deepEqual([web.responses, web.firstFailure], [0, { kind: "refused", cause }]);
});

Deno.test("WebClient retries a host that refuses the first attempt and then answers", async () => {
  const port = await freePort();
  let served: { close(): Promise<void> } | null = null;
  let calls = 0;
  // The server starts only once the first attempt has been refused.
  const startAfterFirst: typeof fetch = async (input, init) => {
    calls++;
    try {
      return await fetch(input, init);
    } finally {
      if (calls === 1) served = await serve(() => new Response("Sitemap: /a.xml\n"), { port });
    }
  };
  try {
    const web = client({ fetch: startAfterFirst });
    const result = await web.get(`http://127.0.0.1:${port}/robots.txt`);
    assert.ok(result.ok, result.ok ? "" : result.reason);
    assert.equal(new TextDecoder().decode(result.bytes), "Sitemap: /a.xml\n");
    assert.deepEqual([web.stats.requests, web.stats.retries, web.responses], [2, 1, 1]);
    assert.deepEqual(web.firstFailure, {
      kind: "refused",
      cause: `connection refused (127.0.0.1:${port})`,
    });
  } finally {
    await (served as { close(): Promise<void> } | null)?.close();
  }
});

Deno.test("WebClient: a response resets the count, so refusals with answers in between never give the host up", async () => {
  const site = new FixtureSite().file("/a.xml", "<urlset/>");
  const server = await site.listen();
  let calls = 0;
  // Refuses the first two attempts of every request, then lets it through.
  const flaky: typeof fetch = (input, init) => {
    calls++;
    if (calls % 3 !== 0) {
      return Promise.reject(
        Object.assign(new TypeError("ECONNREFUSED: Unable to connect"), { code: "ECONNREFUSED" }),
      );
    }
    return fetch(input, init);
  };
  try {
    const web = client({ fetch: flaky });
    for (let i = 0; i < 3; i++) {
      const result = await web.get(server.url("/a.xml"));
      assert.ok(result.ok, result.ok ? "" : result.reason);
    }
    assert.deepEqual([web.stats.requests, web.stats.retries, web.responses], [9, 6, 3]);
  } finally {
    await server.close();
  }
});

Deno.test("WebClient does not retry a permission error and gives its host up", async () => {
  const { fetch: denied, calls } = deniedFetch();
  const web = client({ fetch: denied });
  const first = await web.get("https://site.test/robots.txt");
  const second = await web.get("https://site.test/sitemap.xml");
  const cause = runtimeName() === "deno"
    ? "permission denied: run Deno with --allow-net"
    : "permission denied (site.test:443)";
  assert.deepEqual([first, second].map((r) => !r.ok && r.reason), [
    `Unable to fetch sitemap from https://site.test/robots.txt: ${cause}`,
    `Unable to fetch sitemap from https://site.test/sitemap.xml: ${cause}`,
  ]);
  assert.deepEqual([calls(), web.stats.requests, web.stats.retries], [1, 1, 0]);
});

Deno.test("WebClient reports a self-signed certificate as a TLS failure, not retried, and gives the host up", async () => {
  // From the repository root, the tests' working directory (Node runs this file bundled elsewhere).
  const dir = `${process.cwd()}/fixtures/tls/`;
  const server = createServer({
    key: readFileSync(`${dir}key.pem`),
    cert: readFileSync(`${dir}cert.pem`),
  }, (_request, response) => response.end("Sitemap: /a.xml\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    const web = client();
    const url = `https://127.0.0.1:${port}/robots.txt`;
    const result = await web.get(url);
    // The same certificate for every URL: the host is given up at once.
    const second = await web.get(`https://127.0.0.1:${port}/sitemap.xml`);
    assert.deepEqual(!second.ok && second.failure, !result.ok && result.failure);
    const detail = {
      deno: "invalid peer certificate: CaUsedAsEndEntity",
      bun: "self signed certificate",
      node: "self-signed certificate",
    }[runtimeName()];
    assert.deepEqual(!result.ok && result.failure, {
      kind: "tls",
      cause: `TLS failure (127.0.0.1:${port}: ${detail})`,
    });
    assert.deepEqual([web.stats.requests, web.stats.retries], [1, 0]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

Deno.test("WebClient gives up a host whose headers never come after 3 timeouts in a row", async () => {
  const site = new FixtureSite().hang("/a.xml").hang("/b.xml").hang("/c.xml").hang("/d.xml");
  const server = await site.listen();
  try {
    const web = client({ timeoutMs: 100, retries: 0 });
    const results = [];
    for (const path of ["/a.xml", "/b.xml", "/c.xml", "/d.xml"]) {
      results.push(await web.get(server.url(path)));
    }
    const cause = `timeout after 100 ms (127.0.0.1:${server.port})`;
    assert.deepEqual(results.map((r) => !r.ok && r.reason), [
      "Timed out after 100 ms",
      "Timed out after 100 ms",
      "Timed out after 100 ms",
      `Unable to fetch sitemap from ${server.url("/d.xml")}: ${cause}`,
    ]);
    assert.deepEqual(
      results.map((r) => !r.ok && r.failure),
      Array(4).fill({ kind: "timeout", cause }),
    );
    assert.deepEqual([web.stats.requests, site.count("/d.xml")], [3, 0]);
  } finally {
    await server.close();
  }
});

Deno.test("WebClient never gives up a host that has answered: paths that time out fail alone, the others are read", async () => {
  const site = new FixtureSite().file("/robots.txt", "Sitemap: /a.xml\n");
  for (let i = 0; i < 4; i++) site.hang(`/hang${i}.xml`).file(`/good${i}.xml`, "<urlset/>");
  const server = await site.listen();
  try {
    const web = client({ timeoutMs: 300, retries: 0, concurrency: 4 });
    assert.ok((await web.get(server.url("/robots.txt"))).ok);
    // The four hanging paths take every slot and time out together first.
    const paths = [0, 1, 2, 3].map((i) => `/hang${i}.xml`);
    paths.push(...[0, 1, 2, 3].map((i) => `/good${i}.xml`));
    const results = await Promise.all(paths.map((p) => web.get(server.url(p))));
    assert.deepEqual(results.map((r) => r.ok ? "ok" : r.reason), [
      ...Array(4).fill("Timed out after 300 ms"),
      ...Array(4).fill("ok"),
    ]);
    assert.deepEqual([0, 1, 2, 3].map((i) => site.count(`/good${i}.xml`)), [1, 1, 1, 1]);
  } finally {
    await server.close();
  }
});

Deno.test("WebClient gives connectTimeoutMs to a host that has not answered yet, and timeoutMs once it has", async () => {
  const silent = await silentHosts(1);
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /a.xml\n")
    .file("/slow.xml", "<urlset/>", { latencyMs: 400 });
  const server = await site.listen();
  try {
    const web = client({ timeoutMs: 5_000, connectTimeoutMs: 100, retries: 0 });
    const url = `${silent.homepages[0]}robots.txt`;
    const where = new URL(url).host;
    const dead = await web.get(url);
    assert.deepEqual(dead.ok ? null : [dead.reason, dead.failure], [
      `Timed out after 100 ms: no response from ${where}`,
      { kind: "timeout", cause: `no response after 100 ms (${where})` },
    ]);
    // Answered once, the host's slow sitemap gets the whole timeoutMs.
    assert.ok((await web.get(server.url("/robots.txt"))).ok);
    const slow = await web.get(server.url("/slow.xml"));
    assert.ok(slow.ok, slow.ok ? "" : slow.reason);
  } finally {
    await server.close();
    await silent.close();
  }
});
