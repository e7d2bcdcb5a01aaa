/**
 * Node's default transport (`src/runtime/_node_fetch.ts`): a fetch over
 * `node:http`/`node:https` that returns every response as it came. Run on
 * Node (tests/node.list), where it is the web client's default, and on Deno
 * and Bun through their own `node:http`.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  Agent as HttpAgent,
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { Agent as HttpsAgent, createServer as createHttpsServer } from "node:https";
import process from "node:process";
import { type AddressInfo, connect, type Socket } from "node:net";
import {
  createNodeFetch,
  createNodeProxyFetch,
  openNodeConnections,
} from "../../src/runtime/_node_fetch.ts";
import { describeFetchError } from "../../src/_fetch_failure.ts";
import { FixtureSite } from "../../fixtures/site.ts";
import { gzip } from "../../fixtures/generate.ts";
import { runtimeName } from "../../fixtures/serve.ts";
import { withSite } from "../_tree_helpers.ts";

const nodeFetch = createNodeFetch();

/** Polls `condition` every 5 ms; fails the test after `ms` rather than hanging it. */
async function waitFor(condition: () => boolean, what: string, ms = 2_000): Promise<void> {
  const end = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`Still waiting after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

/** A `node:http(s)` server on `host`, port 0, answering with `handler`; its sockets counted. */
async function rawServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  options: { host?: string; tls?: boolean } = {},
): Promise<{ server: Server; port: number; sockets: Set<Socket>; close(): Promise<void> }> {
  const server = options.tls === true
    ? createHttpsServer({ key: readTls("key.pem"), cert: readTls("cert.pem") }, handler)
    : createHttpServer(handler);
  const sockets = new Set<Socket>();
  server.on(options.tls === true ? "secureConnection" : "connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, options.host ?? "127.0.0.1", resolve);
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        // Tunnels too, which the server no longer counts as its connections.
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** The fixture certificate (self-signed, for 127.0.0.1), from the repository root (the tests' working directory, also where Node runs them bundled). */
function readTls(name: string): string {
  return readFileSync(`${process.cwd()}/fixtures/tls/${name}`, "utf8");
}

Deno.test("createNodeFetch() hands over a transport-gzipped body as the bytes on the wire", async () => {
  const xml = "<urlset><url><loc>https://example.com/</loc></url></urlset>".repeat(200);
  const site = new FixtureSite().file("/a.xml", xml, { gzip: "transport" });
  await withSite(site, async (server) => {
    const response = await nodeFetch(server.url("/a.xml"), {
      headers: { "accept-encoding": "identity" },
    });
    assert.equal(response.headers.get("content-encoding"), "gzip");
    assert.deepEqual(await bytesOf(response), gzip(new TextEncoder().encode(xml)));
  });
});

Deno.test("createNodeFetch() returns a redirect as it came, without following it", async () => {
  const site = new FixtureSite().redirect("/old.xml", "/new.xml", 302).file("/new.xml", "<x/>");
  await withSite(site, async (server) => {
    const response = await nodeFetch(server.url("/old.xml"), { redirect: "manual" });
    await response.body?.cancel();
    assert.deepEqual(
      [response.status, response.headers.get("location"), response.url, response.redirected],
      [302, "/new.xml", server.url("/old.xml"), false],
    );
    assert.deepEqual(site.log.map((entry) => entry.path), ["/old.xml"]);
  });
});

Deno.test("createNodeFetch() sends the headers given, and fetch's Accept when none is given", async () => {
  const site = new FixtureSite().file("/a.xml", "<x/>").file("/b.xml", "<x/>");
  await withSite(site, async (server) => {
    const headers = new Headers({
      "user-agent": "ua/1",
      "x-one": "1",
      "accept-encoding": "identity",
    });
    await bytesOf(await nodeFetch(server.url("/a.xml"), { headers }));
    await bytesOf(await nodeFetch(server.url("/b.xml"), { headers: { accept: "text/xml" } }));
    const [a, b] = site.log.map((entry) => entry.headers);
    assert.deepEqual(
      [a!["user-agent"], a!["x-one"], a!["accept-encoding"], a!["accept"], b!["accept"]],
      ["ua/1", "1", "identity", "*/*", "text/xml"],
    );
  });
});

Deno.test("createNodeFetch() rejects with the signal's reason while the headers have not come", async () => {
  const site = new FixtureSite().hang("/hang.xml");
  await withSite(site, async (server) => {
    const controller = new AbortController();
    const pending = nodeFetch(server.url("/hang.xml"), { signal: controller.signal });
    await waitFor(() => site.inFlight === 1, "the request to arrive");
    const reason = new Error("Deadline");
    controller.abort(reason);
    await assert.rejects(pending, (error) => error === reason);
    await waitFor(() => site.inFlight === 0, "the server to see the client leave");
    // Already aborted: nothing is sent.
    await assert.rejects(
      nodeFetch(server.url("/hang.xml"), { signal: controller.signal }),
      (error) => error === reason,
    );
    assert.equal(site.log.length, 1);
  });
});

Deno.test("createNodeFetch() errors the body with the signal's reason when it aborts mid-body", async () => {
  const site = new FixtureSite().endless("/endless.xml", { intervalMs: 5 });
  await withSite(site, async (server) => {
    const controller = new AbortController();
    const response = await nodeFetch(server.url("/endless.xml"), { signal: controller.signal });
    const reader = response.body!.getReader();
    assert.equal((await reader.read()).done, false);
    const reason = new Error("Too big");
    controller.abort(reason);
    await assert.rejects(
      (async () => {
        while (!(await reader.read()).done);
      })(),
      (error) => error === reason,
    );
    await waitFor(() => site.inFlight === 0, "the server to see the client leave");
  });
});

Deno.test("createNodeFetch() fails a refused connection as undici does: TypeError('fetch failed') with the cause", async () => {
  const closed = await new FixtureSite().listen();
  await closed.close();
  const port = closed.port;
  const url = new URL(`http://127.0.0.1:${port}/robots.txt`);
  const error = await nodeFetch(url).then(() => null, (e: unknown) => e);
  assert.ok(error instanceof TypeError);
  assert.equal(error.message, "fetch failed");
  assert.equal((error.cause as { code?: string }).code, "ECONNREFUSED");
  assert.deepEqual(describeFetchError(error, url), {
    kind: "refused",
    cause: `connection refused (127.0.0.1:${port})`,
  });
});

Deno.test("createNodeFetch() errors the body of a connection reset mid-body in Deno's words", async () => {
  const site = new FixtureSite().reset("/reset.xml", "<urlset><url><loc>");
  await withSite(site, async (server) => {
    const response = await nodeFetch(server.url("/reset.xml"));
    const error = await bytesOf(response).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof TypeError);
    assert.equal(error.message, "error reading a body from connection");
  });
});

Deno.test("createNodeFetch() reads Content-Length and chunked bodies exactly", async () => {
  const text = "<urlset>" + "<url><loc>https://example.com/p</loc></url>".repeat(5_000) +
    "</urlset>";
  const bytes = new TextEncoder().encode(text);
  const raw = await rawServer((request, response) => {
    if (request.url === "/fixed.xml") {
      response.writeHead(200, { "content-length": String(bytes.byteLength) }).end(bytes);
      return;
    }
    // Chunked, in pieces written apart.
    response.writeHead(200);
    let offset = 0;
    const next = (): void => {
      if (offset >= bytes.byteLength) {
        response.end();
        return;
      }
      response.write(bytes.subarray(offset, offset += 30_000));
      setTimeout(next, 1);
    };
    next();
  });
  try {
    const origin = `http://127.0.0.1:${raw.port}`;
    const fixed = await nodeFetch(`${origin}/fixed.xml`);
    assert.deepEqual(
      [fixed.headers.get("content-length"), fixed.headers.get("transfer-encoding")],
      [String(bytes.byteLength), null],
    );
    assert.deepEqual(await bytesOf(fixed), bytes);
    const chunked = await nodeFetch(`${origin}/chunked.xml`);
    assert.deepEqual(
      [chunked.headers.get("content-length"), chunked.headers.get("transfer-encoding")],
      [null, "chunked"],
    );
    assert.deepEqual(await bytesOf(chunked), bytes);
  } finally {
    await raw.close();
  }
});

Deno.test("createNodeFetch() gives a null body for HEAD, 204 and 304, and keeps the connection", async () => {
  const raw = await rawServer((request, response) => {
    if (request.url === "/empty") response.writeHead(204).end();
    else if (request.url === "/same") response.writeHead(304, { etag: '"a"' }).end();
    else response.writeHead(200, { "content-type": "text/plain" }).end("body");
  });
  // Agents that keep connections alive, as Node's global ones do.
  const connections = openNodeConnections();
  const keptAlive = connections.fetch!;
  try {
    const origin = `http://127.0.0.1:${raw.port}`;
    const head = await keptAlive(`${origin}/a`, { method: "HEAD" });
    const empty = await keptAlive(`${origin}/empty`);
    const same = await keptAlive(`${origin}/same`);
    assert.deepEqual(
      [head.status, head.body, empty.status, empty.body, same.status, same.body],
      [200, null, 204, null, 304, null],
    );
    const after = await keptAlive(`${origin}/a`);
    assert.equal(await after.text(), "body");
    // Every request went over the one kept-alive connection (Node and Bun;
    // Deno's own `node:http`, where this transport never runs, opens another).
    if (runtimeName() !== "deno") assert.equal(raw.sockets.size, 1);
  } finally {
    connections.close();
    await raw.close();
  }
});

Deno.test("createNodeFetch() joins repeated headers as fetch does and passes any status through", async () => {
  const raw = await rawServer((_request, response) => {
    response.writeHead(999, "Request denied", [["x-a", "1"], ["x-a", "2"], [
      "content-length",
      "0",
    ]]);
    response.end();
  });
  try {
    const response = await nodeFetch(`http://127.0.0.1:${raw.port}/`);
    await response.body?.cancel();
    assert.deepEqual(
      [response.status, response.ok, response.statusText, response.headers.get("x-a")],
      [999, false, "Request denied", "1, 2"],
    );
  } finally {
    await raw.close();
  }
});

Deno.test("createNodeFetch() reaches an IPv6 literal host", async () => {
  let raw;
  try {
    raw = await rawServer((_request, response) => response.end("six"), { host: "::1" });
  } catch (error) {
    console.log(`skipped: no IPv6 loopback here (${error})`);
    return;
  }
  try {
    const response = await nodeFetch(`http://[::1]:${raw.port}/`);
    assert.equal(await response.text(), "six");
    assert.equal(response.url, `http://[::1]:${raw.port}/`);
  } finally {
    await raw.close();
  }
});

Deno.test("createNodeFetch() speaks https, and reads an untrusted certificate as a TLS failure", async () => {
  const raw = await rawServer((_request, response) => response.end("secure"), { tls: true });
  try {
    const url = new URL(`https://127.0.0.1:${raw.port}/robots.txt`);
    const trusting = createNodeFetch({
      http: new HttpAgent(),
      https: new HttpsAgent({ ca: readTls("cert.pem") }),
    });
    assert.equal(await (await trusting(url)).text(), "secure");
    const error = await nodeFetch(url).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof TypeError);
    const failure = describeFetchError(error, url);
    assert.equal(failure.kind, "tls");
    assert.match(
      failure.cause,
      new RegExp(`^TLS failure \\(127\\.0\\.0\\.1:${raw.port}: self.signed certificate\\)$`),
    );
  } finally {
    await raw.close();
  }
});

Deno.test("openNodeConnections() reuses its connections and close() ends them", async () => {
  const raw = await rawServer((_request, response) => response.end("ok"));
  try {
    const connections = openNodeConnections();
    const origin = `http://127.0.0.1:${raw.port}`;
    for (const path of ["/a", "/b", "/c"]) {
      assert.equal(await (await connections.fetch!(origin + path)).text(), "ok");
    }
    assert.equal(raw.sockets.size, 1);
    connections.close();
    await waitFor(() => raw.sockets.size === 0, "the server to see the connection close");
  } finally {
    await raw.close();
  }
});

/** A forward proxy on 127.0.0.1: answers absolute-form requests itself, tunnels CONNECT to 127.0.0.1 (or refuses it). */
async function testProxy(options: { refuseTunnels?: boolean } = {}): Promise<{
  url: string;
  log: string[];
  close(): Promise<void>;
}> {
  const log: string[] = [];
  const raw = await rawServer((request, response) => {
    log.push(`${request.method} ${request.url} ${request.headers["proxy-authorization"] ?? "-"}`);
    response.end(`via proxy: ${request.headers.host}`);
  });
  raw.server.on("connect", (request: IncomingMessage, client: Socket) => {
    log.push(`CONNECT ${request.url} ${request.headers["proxy-authorization"] ?? "-"}`);
    if (options.refuseTunnels === true) {
      client.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    const port = Number(new URL(`http://${request.url}`).port);
    const upstream = connect(port, "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    raw.sockets.add(upstream);
    upstream.on("close", () => raw.sockets.delete(upstream));
  });
  return { url: `http://127.0.0.1:${raw.port}`, log, close: () => raw.close() };
}

Deno.test("createNodeProxyFetch() sends http: targets to the proxy in absolute form, with the URL's credentials", async () => {
  const proxy = await testProxy();
  try {
    const through = createNodeProxyFetch(proxy.url.replace("//", "//me:p%40ss@"));
    const response = await through("http://site.test/robots.txt");
    assert.equal(await response.text(), "via proxy: site.test");
    assert.deepEqual(proxy.log, [`GET http://site.test/robots.txt Basic ${btoa("me:p@ss")}`]);
  } finally {
    await proxy.close();
  }
});

Deno.test("createNodeProxyFetch() tunnels https: targets through CONNECT, TLS end to end, and keeps the tunnel", async () => {
  const target = await rawServer((request, response) => response.end(`secure ${request.url}`), {
    tls: true,
  });
  const proxy = await testProxy();
  try {
    const through = createNodeProxyFetch(proxy.url, { ca: readTls("cert.pem") });
    const origin = `https://127.0.0.1:${target.port}`;
    assert.equal(await (await through(`${origin}/a.xml`)).text(), "secure /a.xml");
    assert.equal(await (await through(`${origin}/b.xml`)).text(), "secure /b.xml");
    assert.deepEqual(proxy.log, [`CONNECT 127.0.0.1:${target.port} -`]);
  } finally {
    await proxy.close();
    await target.close();
  }
});

Deno.test("createNodeProxyFetch() fails a refused tunnel as a network error naming the proxy's answer", async () => {
  const proxy = await testProxy({ refuseTunnels: true });
  try {
    const url = new URL("https://site.test/robots.txt");
    const error = await createNodeProxyFetch(proxy.url)(url).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof TypeError);
    assert.deepEqual(describeFetchError(error, url), {
      kind: "network",
      cause:
        "network error (site.test:443: The proxy refused a tunnel to site.test:443: 502 Bad Gateway)",
    });
  } finally {
    await proxy.close();
  }
});
