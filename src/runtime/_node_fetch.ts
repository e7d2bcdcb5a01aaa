/**
 * Node's default transport: a `fetch` over `node:http` and `node:https`, for
 * the one kind of request the web client sends (a GET or HEAD without a body,
 * `redirect: "manual"`, a signal), directly or through an HTTP proxy (the
 * `proxy` option and the proxy variables, which Node's own `fetch` ignores).
 *
 * Node's built-in `fetch` (undici) inflates every body sent with a
 * `Content-Encoding`, whatever the request asked, and has no switch against
 * it; so a transport-level gzip bomb was inflated up to `maxDownloadBytes`
 * before the cap stopped it, instead of reaching the bounded decompressor as
 * the gzip bytes on the wire. It also took several times Deno's CPU on the
 * calling thread for the same round trips (bench/README.md#issue-24-nodes-transport-undici-vs-nodehttp).
 * This transport hands over exactly the bytes on the wire and returns every
 * response as it came: a redirect is returned, never followed (the client
 * follows redirects itself, checking each hop); nothing is decoded.
 *
 * Errors have undici's shapes, so `_fetch_failure.ts` reads them as before: a
 * request that gets no response rejects with `TypeError("fetch failed")`
 * whose `cause` is Node's error (`code` `ECONNREFUSED`, `ENOTFOUND`, a TLS
 * code …); a body cut short errors its stream with `error reading a body from
 * connection` (Deno's words), Node's error as its `cause`. An aborted signal
 * rejects the request, or errors the body stream, with the signal's reason.
 *
 * The `node:` modules are loaded on first use through
 * `process.getBuiltinModule`, so Deno and Bun, which import the adapters,
 * load nothing of it.
 *
 * @module
 */
import type * as http from "node:http";
import type * as https from "node:https";
import type * as net from "node:net";
import type { Duplex } from "node:stream";
import type * as tls from "node:tls";
import type { Connections } from "./_types.ts";
import { nodeBuiltin } from "./_node_builtins.ts";

/** The agents requests go through, by URL scheme. */
export interface NodeAgents {
  /** For `http:` URLs. */
  readonly http: http.Agent;
  /** For `https:` URLs. */
  readonly https: https.Agent;
}

/**
 * A fetch over `node:http` and `node:https` (see the module doc).
 *
 * @param agents The agents to send through, or undefined for Node's global
 * agents (keep-alive since Node 19; whatever the program set on them applies).
 * @returns The fetch. It rejects a request with a body or a scheme other
 * than `http:` and `https:` with a `TypeError`.
 */
export function createNodeFetch(agents?: NodeAgents): typeof fetch {
  return (input, init) =>
    nodeRequest(input, init ?? {}, (url, options) => {
      const secure = url.protocol === "https:";
      const { http, https } = modules();
      return (secure ? https : http).request(url, {
        ...options,
        ...(agents === undefined ? {} : { agent: secure ? agents.https : agents.http }),
      });
    });
}

/**
 * A fetch over `node:http`/`node:https` whose every request goes through the
 * HTTP proxy at `proxyUrl` (`http:` or `https:`; its `user:password@` sent as
 * basic `Proxy-Authorization`): `http:` targets as absolute-form requests to
 * the proxy, `https:` ones through a `CONNECT` tunnel with TLS end to end.
 * Its connections are kept alive, to the proxy and through each tunnel.
 *
 * @param proxyUrl The proxy, e.g. `http://proxy.example:3128`.
 * @param tlsOptions TLS options for the `https:` targets (e.g. `ca`); Node's defaults otherwise.
 * @returns The fetch.
 */
export function createNodeProxyFetch(
  proxyUrl: string,
  tlsOptions: https.AgentOptions = {},
): typeof fetch {
  const { http, https } = modules();
  const proxy = new URL(proxyUrl);
  const via = proxy.protocol === "https:" ? https : http;
  const host = proxy.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(proxy.port || (proxy.protocol === "https:" ? 443 : 80));
  const credentials: Record<string, string> = proxy.username === "" && proxy.password === ""
    ? {}
    : { "proxy-authorization": basicAuth(proxy) };
  const toProxy = new via.Agent(KEEP_ALIVE);
  const tunnels = new (tunnelAgentClass())(
    { ...KEEP_ALIVE, ...tlsOptions },
    (authority) =>
      via.request({
        host,
        port,
        method: "CONNECT",
        path: authority,
        headers: { host: authority, ...credentials },
        agent: false,
      }),
  );
  return (input, init) =>
    nodeRequest(
      input,
      init ?? {},
      (url, options) =>
        url.protocol === "https:"
          ? https.request(url, { ...options, agent: tunnels })
          : via.request({
            ...options,
            host,
            port,
            path: url.href,
            headers: { ...options.headers, host: url.host, ...credentials },
            agent: toProxy,
          }),
    );
}

/**
 * Connections of one site of a many-sites run: agents of their own, whose
 * `close()` destroys their sockets. They set no socket cap of their own: the
 * run's scheduler caps requests in flight (`maxConnections`), and a cap here
 * would queue requests where neither it nor the deadlines can see them.
 *
 * @returns The fetch over the agents, and its `close()`.
 */
export function openNodeConnections(): Connections {
  const { http, https } = modules();
  const agents: NodeAgents = {
    http: new http.Agent(KEEP_ALIVE),
    https: new https.Agent(KEEP_ALIVE),
  };
  return {
    fetch: createNodeFetch(agents),
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** Node's global agents' settings: idle sockets closed after 5 s, the most recent reused first. */
const KEEP_ALIVE = { keepAlive: true, scheduling: "lifo", timeout: 5_000 } as const;

interface Modules {
  readonly http: typeof http;
  readonly https: typeof https;
  readonly tls: typeof tls;
}

let loaded: Modules | undefined;

function modules(): Modules {
  return loaded ??= {
    http: nodeBuiltin("node:http") as typeof http,
    https: nodeBuiltin("node:https") as typeof https,
    tls: nodeBuiltin("node:tls") as typeof tls,
  };
}

/** `Basic` credentials of the proxy URL's user and password (percent-decoded, UTF-8). */
function basicAuth(proxy: URL): string {
  const bytes = new TextEncoder().encode(
    `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`,
  );
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/** An `https.Agent` whose connections are tunnels opened by `connect(authority)`. */
type TunnelAgentClass = new (
  options: https.AgentOptions,
  connect: (authority: string) => http.ClientRequest,
) => https.Agent;

let tunnelAgent: TunnelAgentClass | undefined;

/**
 * The tunnel agent's class, made once `node:https` is loaded: each new
 * connection sends `CONNECT host:port` and, once the proxy answers 200, speaks
 * TLS with the target over it; the agent pools these as it pools sockets.
 */
function tunnelAgentClass(): TunnelAgentClass {
  const { https, tls } = modules();
  return tunnelAgent ??= class extends https.Agent {
    readonly #connect: (authority: string) => http.ClientRequest;

    constructor(
      options: https.AgentOptions,
      connect: (authority: string) => http.ClientRequest,
    ) {
      super(options);
      this.#connect = connect;
    }

    // Node calls it with a callback, and then takes the socket from it when it comes.
    override createConnection(
      options: http.RequestOptions,
      done?: (error: Error | null, socket: Duplex) => void,
    ): undefined {
      const target = String(options.host);
      const authority = `${target.includes(":") ? `[${target}]` : target}:${options.port}`;
      const request = this.#connect(authority);
      request.once("connect", (answer: http.IncomingMessage, socket: net.Socket) => {
        if (answer.statusCode !== 200) {
          socket.destroy();
          const status = `${answer.statusCode} ${answer.statusMessage ?? ""}`.trimEnd();
          done?.(new Error(`The proxy refused a tunnel to ${authority}: ${status}`), socket);
          return;
        }
        done?.(null, tls.connect({ ...(options as tls.ConnectionOptions), socket }));
      });
      request.once("error", (error) => done?.(error, request.socket!));
      request.end();
      return undefined;
    }
  };
}

/** Statuses whose response has no body, as fetch gives them (`null` body). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** A reason phrase `new Response` accepts (RFC 9112 §4). */
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Body bytes buffered ahead of the reader before the socket is paused. */
const HIGH_WATER_BYTES = 64 * 1024;

/** Starts the request for `url` with these method and headers: directly, or through a proxy. */
type Connect = (
  url: URL,
  options: { readonly method: string; readonly headers: Record<string, string> },
) => http.ClientRequest;

function nodeRequest(
  input: RequestInfo | URL,
  init: RequestInit,
  connect: Connect,
): Promise<Response> {
  const given = givenRequest(input);
  const url = new URL(given?.url ?? String(input));
  const method = (init.method ?? given?.method ?? "GET").toUpperCase();
  const signal = init.signal ?? given?.signal ?? null;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Promise.reject(new TypeError(`Only http: and https: URLs are fetched: ${url.href}`));
  }
  if (init.body != null || (given !== null && given.body !== null)) {
    return Promise.reject(new TypeError("A request body is not supported"));
  }
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers = requestHeaders(init.headers ?? given?.headers);
  // fetch's own default, sent by every runtime's fetch.
  headers["accept"] ??= "*/*";
  return new Promise((resolve, reject) => {
    let request: http.ClientRequest | undefined;
    let body: ReadableStreamDefaultController<Uint8Array> | null = null;
    /** Whether the response and its body are still to come: no abort or failure has ended it. */
    let open = true;
    const finish = (): void => {
      open = false;
      signal?.removeEventListener("abort", onAbort);
    };
    /** Before the response: rejects; after it: errors the body. */
    const fail = (error: unknown): void => {
      if (!open) return;
      finish();
      if (body === null) reject(error);
      else body.error(error);
      request?.destroy();
    };
    const onAbort = (): void => fail(signal!.reason);
    try {
      request = connect(url, { method, headers });
    } catch (error) {
      // An invalid header value or option, found before anything is sent.
      reject(new TypeError("fetch failed", { cause: error }));
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => {
      fail(body === null ? new TypeError("fetch failed", { cause: error }) : bodyCut(error));
    });
    request.on("response", (message) => {
      try {
        const status = message.statusCode ?? 0;
        const noBody = method === "HEAD" || NULL_BODY_STATUSES.has(status);
        const stream = noBody ? null : bodyStream(message, {
          started: (controller) => body = controller,
          open: () => open,
          ended: finish,
          failed: (error) => fail(bodyCut(error)),
        });
        const response = new Response(stream, {
          status: status >= 200 && status <= 599 ? status : 200,
          statusText: REASON_PHRASE.test(message.statusMessage ?? "")
            ? message.statusMessage ?? ""
            : "",
          headers: responseHeaders(message.rawHeaders),
        });
        // fetch gives any status a server sends (LinkedIn's 999), which `new Response` refuses.
        if (response.status !== status) {
          Object.defineProperties(response, { status: { value: status }, ok: { value: false } });
        }
        Object.defineProperty(response, "url", { value: url.href });
        if (noBody) {
          // Read to its end, so that the connection is kept for the next request.
          message.on("end", finish);
          message.resume();
        }
        resolve(response);
      } catch (error) {
        fail(new TypeError("fetch failed", { cause: error }));
      }
    });
    request.end();
    loadWebClassesWhileSent(request);
  });
}

/**
 * `input` when it is a `Request`. Strings and URLs are told apart first: the
 * first use of `Request` (or `Headers`, `Response`) loads Node's bundled
 * fetch ({@linkcode loadWebClassesWhileSent}).
 *
 * @param input What a fetch was called with.
 * @returns The request, or null for a string or URL.
 */
export function givenRequest(input: RequestInfo | URL): Request | null {
  if (typeof input === "string" || input instanceof URL) return null;
  return input instanceof Request ? input : null;
}

/**
 * The request's headers by lower-case name. A plain object (what the web
 * client sends) is read as it is, without `Headers`.
 */
function requestHeaders(init: HeadersInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (init === undefined) return headers;
  const prototype = Object.getPrototypeOf(init);
  if (prototype === Object.prototype || prototype === null) {
    for (const [name, value] of Object.entries(init)) headers[name.toLowerCase()] = String(value);
    return headers;
  }
  for (const [name, value] of new Headers(init)) headers[name] = value;
  return headers;
}

let webClassesLoading = false;

/**
 * Node defines `Headers`, `Request` and `Response` as getters that load its
 * bundled fetch (undici) on first use: ~40 ms on the calling thread (Node
 * 20). The first response needs them, so they are loaded once that first
 * request has gone out, while its answer is on the wire, rather than before
 * it is sent or once the answer has come (bench/README.md#issue-24-nodes-first-request).
 */
function loadWebClassesWhileSent(request: http.ClientRequest): void {
  if (webClassesLoading) return;
  webClassesLoading = true;
  request.once("finish", () => setImmediate(() => void globalThis.Response));
}

/** What the body stream tells the request. */
interface BodyEvents {
  /** The stream exists: from now on failures error it. */
  started(controller: ReadableStreamDefaultController<Uint8Array>): void;
  /** Whether the stream may still be fed: false once it ended, failed or was cancelled. */
  open(): boolean;
  /** The body was read to its end, or cancelled. */
  ended(): void;
  /** The response broke off. */
  failed(error: unknown): void;
}

/**
 * The response's body as a web stream, read from the socket only as fast as
 * the reader takes it: the message is paused once {@linkcode HIGH_WATER_BYTES}
 * wait, and resumed when the reader asks for more.
 */
function bodyStream(message: http.IncomingMessage, events: BodyEvents): ReadableStream<Uint8Array> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    pull() {
      message.resume();
    },
    cancel() {
      events.ended();
      message.destroy();
    },
  }, { highWaterMark: HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength });
  events.started(controller);
  message.on("data", (chunk: Uint8Array) => {
    if (!events.open()) return;
    // A plain view: a Buffer's `slice` shares memory, which a reader would not expect.
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) message.pause();
  });
  message.on("end", () => {
    if (!events.open()) return;
    events.ended();
    controller.close();
  });
  message.on("error", (error) => events.failed(error));
  return stream;
}

/** The error a body cut short errors its stream with (see the module doc). */
function bodyCut(error: unknown): TypeError {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const detail = code === "ECONNRESET" ? "" : `: ${message}`;
  return new TypeError(`error reading a body from connection${detail}`, { cause: error });
}

/** The response headers, repeated ones joined as fetch joins them (`Headers.append`). */
function responseHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A name or value `Headers` refuses (Node's parser let it through): left out, as fetch would.
    }
  }
  return headers;
}
