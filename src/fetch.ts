/**
 * The web client: one GET with every guard a crawler of hostile sites needs —
 * a byte cap on the body, a deadline covering headers and body, retries with
 * backoff and `Retry-After`, redirects followed by hand so each hop is checked,
 * a per-host concurrency limit, and cancellation. It never parses what it
 * downloads.
 *
 * Transport compression. A body sent with `Content-Encoding: gzip` is
 * inflated inside the runtime's `fetch`, which reads ahead past any byte cut,
 * so a transport-level gzip bomb would cost far more than `maxDownloadBytes`
 * before the cap could stop it (figures: bench/README.md#transport-compression).
 * Deno decodes whatever the caller's `Accept-Encoding` says unless it is
 * exactly `identity` (any other value, `gzip, identity` included, is decoded,
 * reading ahead past a byte cut); Bun ignores the header and only stops with
 * its own `decompress: false` init option. So every request sends
 * `Accept-Encoding: identity` (not overridable by `headers`) and passes
 * `decompress: false` (ignored by Deno and by other fetches). A well-behaved
 * server then sends plain bytes; one that compresses anyway reaches the caller
 * as raw gzip, counted against `maxDownloadBytes`, and is inflated by the
 * bounded decompressor, which sniffs the gzip magic bytes. The cost: sitemaps
 * a CDN would have compressed on the fly travel uncompressed. Node's `fetch`
 * (undici) inflates a body with a `Content-Encoding` whatever the request
 * asked and has no switch against it, so on Node the default transport is a
 * fetch over `node:http`/`node:https` (`runtime/_node_fetch.ts`) that hands
 * over the bytes on the wire. Only a `fetch` option that is undici's own
 * (or another inflating one) makes the cap count inflated bytes: the stream
 * is then stopped at `maxDownloadBytes` instead.
 *
 * Failures below HTTP. A request that gets no response at all ends with a
 * {@linkcode FetchFailure}: its kind (`refused`, `host-not-found`, `tls`,
 * `timeout`, `permission`, `network`, `refused-by-guard`) and a one-line cause
 * such as `connection refused (127.0.0.1:59999)`, read from whatever shape the
 * runtime threw (see `_fetch_failure.ts`). Network errors, resets and refused
 * connections are retried; a permission error, a TLS failure and an unknown
 * host are not (the next attempt would meet the same answer).
 *
 * Fail-fast rule. A host (scheme, name and port) that has not sent a single
 * HTTP response (of any status) in the client's life is given up at its first
 * connect timeout (below), or once {@linkcode REFUSALS_TO_GIVE_UP} attempts
 * to it were refused (`ECONNREFUSED`) or timed out (`timeoutMs`) before any
 * response header; any host is given up at the first permission error, TLS
 * failure or unknown-name answer (the same for every URL). From then on every
 * request to it, new ones and retries already waiting alike, fails at once
 * with that cause and sends nothing: a closed port costs a handful of
 * requests, a host that never answers one connect timeout. A host that has
 * answered is never given up for refusals or timeouts: a server whose
 * heaviest generated sitemaps time out while the rest answer at once loses
 * only those, and one that restarts mid-crawl (refusing for a moment) loses
 * nothing once each request's retries get through.
 *
 * Bot walls. A response that is a bot-protection vendor's challenge or block
 * page (`challenge.ts`: Cloudflare's `cf-mitigated: challenge` on any status,
 * the vendors' page markers on a 4xx or 5xx, read from the first
 * {@linkcode CHALLENGE_SNIFF_BYTES} of the body) fails with a reason naming
 * the vendor, and is not retried: the next attempt would meet the same wall.
 *
 * Two clocks bound an attempt: `timeoutMs`, from the request to the last body
 * byte, and `connectTimeoutMs`, from the request to the response headers,
 * which applies only while the host has not answered any request yet. A dead
 * host (accepting connections and never answering, or dropping them) is so
 * found out after `connectTimeoutMs`, while a live one's slow sitemaps still
 * get the whole `timeoutMs`.
 *
 * @module
 */
import { abortable, AbortWaiters } from "./_abortable.ts";
import { concatBytes } from "./_concat.ts";
import { errorMessage } from "./_error_message.ts";
import { describeFetchError, type FetchFailure, hostAndPort } from "./_fetch_failure.ts";
import { type Challenge, CHALLENGE_SNIFF_BYTES, detectChallenge } from "./challenge.ts";

export type { FetchFailure, FetchFailureKind } from "./_fetch_failure.ts";
import { RequestScheduler } from "./schedule.ts";
import { defaultFetch } from "./runtime/mod.ts";
import { proxyFor } from "./_proxy.ts";

/** Options of {@linkcode WebClient}. */
export interface WebClientOptions {
  /**
   * The fetch to call.
   * @default {globalThis.fetch (Node: node:http, see the module doc)}
   */
  readonly fetch?: typeof fetch;
  /** `User-Agent` of every request (an entry in `headers` overrides it). */
  readonly userAgent: string;
  /**
   * Headers of every request, redirects and retries included (`Authorization`,
   * `Cookie` and `Proxy-Authorization` are dropped on a redirect to another
   * origin). `Accept-Encoding` is always `identity`; see the module doc.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** Deadline of one attempt, from sending the request to the last body byte, redirects included. */
  readonly timeoutMs: number;
  /**
   * Time from sending a request to its response headers while its host has
   * not answered any request of this client yet (see the module doc); once
   * the host has answered, only `timeoutMs` applies. @default {timeoutMs}
   */
  readonly connectTimeoutMs?: number;
  /**
   * Extra attempts after a network error (a reset mid-body included), 408, 429
   * or 5xx. A timeout is not retried: it already spent the whole budget, and a
   * server that hangs once tends to hang again.
   */
  readonly retries: number;
  /** Body bytes read per response; the download is cancelled past it. */
  readonly maxDownloadBytes: number;
  /**
   * Requests in flight per host and port; waits between retries hold no
   * slot. With `scheduler`, the most attempts per host this client lets into
   * it at once (the scheduler's own limits still apply): the others wait here
   * before they build a request, so that a crawl that names many URLs at once
   * (its well-known paths) holds little for them while it waits.
   */
  readonly concurrency: number;
  /**
   * Grants each request (and redirect hop) its turn: per-host and global
   * connection caps and per-host delays. Shared between clients, it spans
   * them all. @default {a scheduler of `concurrency` per host and no other limit}
   */
  readonly scheduler?: RequestScheduler;
  /** Aborts everything: `get()` then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * The longest `Retry-After` honoured; a longer one ends the retries.
   * @default {10000}
   */
  readonly maxRetryAfterMs?: number;
  /**
   * Redirect hops followed per attempt.
   * @default {10}
   */
  readonly maxRedirects?: number;
  /** Checked before every request, the first and each redirect hop: returns why the URL is refused, or null. */
  readonly checkUrl?: (url: URL) => string | null | Promise<string | null>;
}

/**
 * Refused (or header-less timed-out) attempts after which a host that has
 * never answered is given up (see the module doc).
 */
export const REFUSALS_TO_GIVE_UP = 3;

/** The outcome of {@linkcode WebClient.get}. */
export type FetchResult =
  | {
    readonly ok: true;
    /** The final URL, after redirects. */
    readonly url: string;
    readonly status: number;
    readonly headers: Headers;
    /** The body as received (raw gzip if the server compressed it anyway); owns its buffer. */
    readonly bytes: Uint8Array;
    readonly redirected: boolean;
  }
  | {
    readonly ok: false;
    /** The last URL tried. */
    readonly url: string;
    /** The last HTTP status, or null when no response arrived. */
    readonly status: number | null;
    /** Why, in words a person can act on. */
    readonly reason: string;
    /**
     * Present when the request failed below HTTP (no response, a timeout, a
     * connection lost mid-body, a refusal by `checkUrl`): its kind and one-line cause.
     */
    readonly failure?: FetchFailure;
    /**
     * Present when the response was a bot-protection vendor's challenge or
     * block page (see `challenge.ts`); `reason` is then its reason. Not retried.
     */
    readonly challenge?: Challenge;
  };

/** Counters of a {@linkcode WebClient}, updated as it works. */
export interface WebClientStats {
  /** HTTP requests sent: every attempt and every redirect hop. */
  requests: number;
  /** Body bytes read, including partial and refused bodies. */
  bytesDownloaded: number;
  /** Attempts after the first. */
  retries: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const BACKOFF_BASE_MS = 200;
/** Request headers by lower-case name (see `WebClient.#headers`). */
type RequestHeaders = Readonly<Record<string, string>>;

/** Headers that must not follow a redirect to another origin (as the fetch standard does for Authorization). */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

const STATUS_TEXT: Readonly<Record<number, string>> = {
  300: "Multiple Choices",
  304: "Not Modified",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  410: "Gone",
  414: "URI Too Long",
  429: "Too Many Requests",
  451: "Unavailable For Legal Reasons",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** One attempt's end: a result, and whether another attempt may do better. */
interface Attempt {
  readonly result: FetchResult;
  readonly retry: boolean;
  /** How long the server asked us to wait (Retry-After), if it did. */
  readonly retryAfterMs?: number;
}

/** Where one attempt is: the hop it is on, what it last heard, and its clock. */
interface AttemptState {
  /** The URL the attempt started from. */
  readonly start: URL;
  /** The hop's URL. */
  url: URL;
  /** The last HTTP status, null before any response. */
  status: number | null;
  /** Headers of the next request (credentials dropped past an off-origin redirect). */
  headers: RequestHeaders;
  /** URLs requested so far, for redirect loops. */
  readonly visited: Set<string>;
  /** Aborted when a clock runs out, the body is too big, or the caller's signal aborts. */
  readonly deadline: AbortController;
  /** The whole-attempt clock, started at the first slot granted. */
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Raised inside an attempt when one of its clocks runs out (`"connect"`: no
 * response headers from a host not heard from yet); never escapes the client.
 */
class DeadlineError extends Error {}

interface Waiter {
  readonly grant: () => void;
  readonly reject: (reason: unknown) => void;
  readonly signal: AbortSignal;
}

/**
 * A counting semaphore: `acquire` waits (in order) while all slots are taken;
 * waiting ends with the signal's reason when it aborts. A `later` waiter is
 * granted only when no other waits, in order among the later ones.
 *
 * One abort listener per signal, however many wait on it: a stream's
 * sitemaps all wait on the stream's one signal, and a listener each made
 * Node warn of a leak (MaxListenersExceededWarning) from the 11th.
 */
export class Slots {
  #free: number;
  readonly #waiting: Waiter[] = [];
  readonly #later: Waiter[] = [];
  readonly #watch = new AbortWaiters<Waiter>((waiter, reason) => {
    for (const queue of [this.#waiting, this.#later]) {
      const i = queue.indexOf(waiter);
      if (i >= 0) queue.splice(i, 1);
    }
    waiter.reject(reason);
  });

  constructor(size: number) {
    this.#free = size;
  }

  acquire(signal: AbortSignal, later = false): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((grant, reject) => {
      const waiter = { grant, reject, signal };
      (later ? this.#later : this.#waiting).push(waiter);
      this.#watch.add(signal, waiter);
    });
  }

  release(): void {
    const next = this.#waiting.shift() ?? this.#later.shift();
    if (next === undefined) {
      this.#free++;
      return;
    }
    this.#watch.delete(next.signal, next);
    next.grant();
  }
}

/**
 * Fetches sitemaps and robots.txt files with limits, retries and guards.
 * One client serves one crawl: its per-host limits and stats span every call.
 *
 * @example Fetch one file
 * ```ts
 * import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
 * import { WebClient } from "./fetch.ts";
 *
 * // A server in memory: robots.txt, and 404 for anything else.
 * const fetch = (input: RequestInfo | URL): Promise<Response> =>
 *   Promise.resolve(
 *     String(input) === "https://example.com/robots.txt"
 *       ? new Response("Sitemap: https://example.com/sitemap.xml\n")
 *       : new Response(null, { status: 404, statusText: "Not Found" }),
 *   );
 * const client = new WebClient({
 *   fetch,
 *   userAgent: "my-crawler/1.0",
 *   timeoutMs: 30_000,
 *   retries: 2,
 *   maxDownloadBytes: 50 * 1024 * 1024,
 *   concurrency: 4,
 * });
 * const robots = await client.get("https://example.com/robots.txt");
 * ok(robots.ok);
 * strictEqual(
 *   new TextDecoder().decode(robots.bytes),
 *   "Sitemap: https://example.com/sitemap.xml\n",
 * );
 * const missing = await client.get("https://example.com/sitemap.xml");
 * deepStrictEqual([missing.ok, missing.status], [false, 404]);
 * strictEqual(client.stats.requests, 2);
 * ```
 */
export class WebClient {
  /** Live counters. */
  readonly stats: WebClientStats = { requests: 0, bytesDownloaded: 0, retries: 0 };

  readonly #options: WebClientOptions;
  readonly #fetch: typeof fetch;
  readonly #scheduler: RequestScheduler;
  readonly #maxRetryAfterMs: number;
  readonly #maxRedirects: number;
  readonly #connectTimeoutMs: number;
  /** Refused or header-less timed-out attempts per host key that has never answered. */
  readonly #refusals = new Map<string, number>();
  /** Host keys that have sent an HTTP response (any status): never given up for refusals or timeouts. */
  readonly #answered = new Set<string>();
  /** Hosts given up, with the failure every later request to them ends with. */
  readonly #down = new Map<string, FetchFailure>();
  #responses = 0;
  #plainHeaders: RequestHeaders | null = null;
  #firstFailure: FetchFailure | null = null;
  readonly #challenges = new Map<string, Challenge>();
  /** Attempts let into the scheduler per host key (`concurrency` each). */
  readonly #hostSlots = new Map<string, Slots>();

  /**
   * @param options Limits, identity and guards.
   * @throws {RangeError} When a limit is not a non-negative number (concurrency: at least 1).
   */
  constructor(options: WebClientOptions) {
    for (
      const [name, value, min] of [
        ["timeoutMs", options.timeoutMs, 1],
        ["connectTimeoutMs", options.connectTimeoutMs ?? 1, 1],
        ["retries", options.retries, 0],
        ["maxDownloadBytes", options.maxDownloadBytes, 0],
        ["concurrency", options.concurrency, 1],
        ["maxRetryAfterMs", options.maxRetryAfterMs ?? 0, 0],
        ["maxRedirects", options.maxRedirects ?? 0, 0],
      ] as const
    ) {
      if (typeof value !== "number" || Number.isNaN(value) || value < min) {
        throw new RangeError(`WebClient option ${name} must be a number >= ${min}: ${value}`);
      }
    }
    this.#options = options;
    this.#fetch = options.fetch ?? defaultFetch((url) => proxyFor(url, null));
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
    this.#maxRedirects = options.maxRedirects ?? 10;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? options.timeoutMs;
    this.#scheduler = options.scheduler ??
      new RequestScheduler({
        concurrency: options.concurrency,
        maxConnections: Number.MAX_SAFE_INTEGER,
      });
  }

  /** HTTP responses received, any status, redirect hops included. */
  get responses(): number {
    return this.#responses;
  }

  /** The first failure below HTTP (or refusal by `checkUrl`) of any request, or null. */
  get firstFailure(): FetchFailure | null {
    return this.#firstFailure;
  }

  /** The URLs (as requested) whose response was a bot wall, with the wall, in the order met. */
  get challenges(): ReadonlyMap<string, Challenge> {
    return this.#challenges;
  }

  /**
   * GETs `url`, following redirects, retrying transient failures, and reading
   * the body up to the byte cap and the deadline.
   *
   * @param url An absolute http(s) URL.
   * @param init Headers for this request only (they override the client's);
   * `ungated`: this is the robots.txt request its host is held for (see
   * {@linkcode RequestScheduler.holdForRobots}); `later`: a speculative
   * request (a well-known path, the homepage for its feed links) that waits
   * while other requests wait for its host.
   * @returns The body, or why there is none. Never rejects for network or HTTP trouble.
   * @throws The signal's reason, promptly, when `options.signal` aborts.
   */
  async get(
    url: string,
    init: {
      readonly headers?: Readonly<Record<string, string>>;
      readonly ungated?: boolean;
      readonly later?: boolean;
    } = {},
  ): Promise<FetchResult> {
    const signal = this.#options.signal;
    signal?.throwIfAborted();
    let start: URL;
    try {
      start = new URL(url);
    } catch {
      return { ok: false, url, status: null, reason: `Invalid URL: ${url}` };
    }
    start.hash = "";
    if (start.protocol !== "http:" && start.protocol !== "https:") {
      return {
        ok: false,
        url: start.href,
        status: null,
        reason: `Refused a non-http(s) URL: ${shorten(start.href)}`,
      };
    }
    // Built once for the usual call without headers of its own (frozen: a
    // redirect off-origin copies them).
    const headers = init.headers === undefined
      ? this.#plainHeaders ??= this.#headers(undefined)
      : this.#headers(init.headers);
    for (let attempt = 0;; attempt++) {
      const outcome = await this.#gatedAttempt(
        start,
        headers,
        init.ungated ?? false,
        init.later ?? false,
      );
      const result = outcome.result;
      if (!result.ok && result.failure !== undefined) this.#firstFailure ??= result.failure;
      if (!result.ok && result.challenge !== undefined) {
        this.#challenges.set(start.href, result.challenge);
      }
      if (!outcome.retry || attempt >= this.#options.retries) return result;
      // Given up meanwhile (this attempt or another's): waiting would change nothing.
      if (this.#down.has(hostKey(new URL(result.url)))) return result;
      let waitMs = backoffMs(attempt);
      if (outcome.retryAfterMs !== undefined) {
        if (outcome.retryAfterMs > this.#maxRetryAfterMs) {
          const r = outcome.result;
          return r.ok ? r : {
            ...r,
            reason: `${r.reason} (Retry-After ${
              Math.ceil(outcome.retryAfterMs / 1000)
            } s exceeds the ${this.#maxRetryAfterMs} ms cap)`,
          };
        }
        waitMs = outcome.retryAfterMs;
      }
      this.stats.retries++;
      await sleep(waitMs, signal);
    }
  }

  /**
   * The request headers: user agent, the caller's, then the encoding rule
   * nobody may override. A plain object, not a `Headers`: on Node, the first
   * use of the web classes loads the whole bundled fetch (~40 ms on the
   * calling thread), which the first request then waited for
   * (bench/README.md#issue-24-nodes-first-request).
   */
  #headers(extra: Readonly<Record<string, string>> | undefined): RequestHeaders {
    const headers: Record<string, string> = { "user-agent": this.#options.userAgent };
    for (const [key, value] of Object.entries(this.#options.headers ?? {})) {
      headers[key.toLowerCase()] = trimHeaderValue(value);
    }
    for (const [key, value] of Object.entries(extra ?? {})) {
      headers[key.toLowerCase()] = trimHeaderValue(value);
    }
    headers["accept-encoding"] = "identity";
    return Object.freeze(headers);
  }

  /**
   * {@linkcode WebClient.#attempt} once fewer than `concurrency` attempts to
   * its host are under way (a `later` one once no other waits); the
   * robots.txt request a held host waits for (`ungated`) never waits here.
   */
  async #gatedAttempt(
    start: URL,
    headers: RequestHeaders,
    ungated: boolean,
    later: boolean,
  ): Promise<Attempt> {
    if (ungated) return await this.#attempt(start, headers, ungated);
    const key = hostKey(start);
    let slots = this.#hostSlots.get(key);
    if (slots === undefined) {
      slots = new Slots(this.#options.concurrency);
      this.#hostSlots.set(key, slots);
    }
    await slots.acquire(this.#options.signal ?? NEVER_ABORTED, later);
    try {
      return await this.#attempt(start, headers, ungated);
    } finally {
      slots.release();
    }
  }

  /** One attempt: the request, each redirect hop, and the body, under one deadline. */
  async #attempt(start: URL, baseHeaders: RequestHeaders, ungated: boolean): Promise<Attempt> {
    const outer = this.#options.signal;
    const deadline = new AbortController();
    // The caller's signal reaches the request through the deadline's, one
    // listener per signal for all attempts in flight: `AbortSignal.any` on a
    // signal that outlives the attempt (a batch run's, shared by every site)
    // kept a dependent per request on it, which grew the heap over a batch
    // (bench/README.md#batch-memory).
    if (outer !== undefined) {
      if (outer.aborted) deadline.abort(outer.reason);
      else CALLER_ABORTS.add(outer, deadline);
    }
    const state: AttemptState = {
      start,
      url: start,
      status: null,
      headers: baseHeaders,
      visited: new Set<string>([start.href]),
      deadline,
      timer: undefined,
    };
    try {
      for (let hop = 0;; hop++) {
        const outcome = await this.#hop(state, hop, ungated);
        if (outcome !== "redirected") return outcome;
      }
    } catch (error) {
      return this.#failed(error, state);
    } finally {
      clearTimeout(state.timer);
      if (outer !== undefined) CALLER_ABORTS.delete(outer, deadline);
    }
  }

  /**
   * One request of an attempt: the URL checked, a slot taken, the response
   * read. "redirected" when it moved `state.url` on to the next hop.
   */
  async #hop(state: AttemptState, hop: number, ungated: boolean): Promise<Attempt | "redirected"> {
    const url = state.url;
    const signal = state.deadline.signal;
    const check = this.#options.checkUrl?.(url) ?? null;
    // A synchronous answer is taken as it is; a lookup in flight gives way to an abort.
    const refusal = await (check instanceof Promise ? abortable(check, signal) : check);
    if (refusal !== null) {
      return final(url, state.status, refusal, { kind: "refused-by-guard", cause: refusal });
    }
    const release = await this.#scheduler.acquire(url, signal, ungated);
    // Checked once the slot is ours: requests queued behind the ones that
    // found the host refusing must not try it again.
    const down = this.#down.get(hostKey(url));
    if (down !== undefined) {
      release();
      return final(
        url,
        state.status,
        `Unable to fetch sitemap from ${url.href}: ${down.cause}`,
        down,
      );
    }
    // The clock starts once we hold a slot: waiting behind our own requests is not the server's fault.
    state.timer ??= setTimeout(
      () => state.deadline.abort(new DeadlineError()),
      this.#options.timeoutMs,
    );
    try {
      this.stats.requests++;
      const response = await this.#headersOf(url, state.headers, state.deadline);
      const status = state.status = response.status;
      this.#responses++;
      this.#answered.add(hostKey(url));
      this.#refusals.delete(hostKey(url));
      if (REDIRECT_STATUSES.has(status) && response.headers.has("location")) {
        await discard(response);
        return this.#redirect(state, response.headers.get("location")!, hop);
      }
      if (status < 200 || status > 299) return await this.#httpError(url, response);
      // A challenge header on a 2xx: the body is the wall's page, not the document.
      const wall = detectChallenge(status, response.headers, NO_BYTES);
      if (wall !== null) {
        await discard(response);
        return challenged(url, status, wall);
      }
      const body = await this.#readBody(response, state.deadline);
      if (typeof body === "string") return final(url, status, body);
      return {
        result: {
          ok: true,
          url: url.href,
          status,
          headers: response.headers,
          bytes: body,
          redirected: url !== state.start,
        },
        retry: false,
      };
    } catch (error) {
      // Noted before the slot is given back, so that the request waiting for
      // it finds the host given up if this failure gave it up.
      return this.#failed(error, state);
    } finally {
      release();
    }
  }

  /** The end of an attempt that threw: the caller's abort goes on, anything else is a failure. */
  #failed(error: unknown, state: AttemptState): Attempt {
    const outer = this.#options.signal;
    if (outer?.aborted) throw outer.reason;
    if (error instanceof DeadlineError) return this.#timedOut(error, state.url, state.status);
    return this.#failedBelowHttp(error, state.url, state.status);
  }

  /** Moves the attempt on to a redirect's target, or ends it when the target is refused. */
  #redirect(state: AttemptState, location: string, hop: number): Attempt | "redirected" {
    const { url, status } = state;
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return final(url, status, `Invalid redirect Location from ${url.href}: ${location}`);
    }
    next.hash = "";
    if (next.protocol !== "http:" && next.protocol !== "https:") {
      return final(url, status, `Redirect to a non-http(s) URL refused: ${shorten(next.href)}`);
    }
    if (state.visited.has(next.href)) {
      return final(url, status, `Redirect loop: ${url.href} redirects back to ${next.href}`);
    }
    if (hop >= this.#maxRedirects) {
      return final(
        url,
        status,
        `Too many redirects (more than ${this.#maxRedirects}) from ${state.start.href}`,
      );
    }
    if (next.origin !== url.origin) state.headers = withoutCredentials(state.headers);
    state.visited.add(next.href);
    state.url = next;
    return "redirected";
  }

  /** An attempt one of whose clocks ran out (module doc: two clocks bound an attempt). */
  #timedOut(error: DeadlineError, url: URL, status: number | null): Attempt {
    const where = hostAndPort(url);
    const connect = error.message === "connect";
    const ms = connect ? this.#connectTimeoutMs : this.#options.timeoutMs;
    const failure: FetchFailure = {
      kind: "timeout",
      cause: connect
        ? `no response after ${ms} ms (${where})`
        : `timeout after ${ms} ms (${where})`,
    };
    // Only a host that never sent headers counts towards giving it up.
    if (status === null) this.#noteFailure(url, failure, connect);
    const reason = connect
      ? `Timed out after ${ms} ms: no response from ${where}`
      : `Timed out after ${ms} ms`;
    return final(url, status, reason, failure);
  }

  /** An attempt the runtime's fetch failed below HTTP: refused, reset, DNS, TLS, permission. */
  #failedBelowHttp(error: unknown, url: URL, status: number | null): Attempt {
    const failure = describeFetchError(error, url);
    this.#noteFailure(url, failure);
    // A transport error keeps the runtime's own words (a reset mid-body
    // says so); the others read as their one-line cause.
    const message = errorMessage(error);
    const said = failure.kind === "network" && message !== "fetch failed" ? message : failure.cause;
    return {
      result: {
        ok: false,
        url: url.href,
        status,
        reason: `Unable to fetch sitemap from ${url.href}: ${said}`,
        failure,
      },
      retry: failure.kind === "network" || failure.kind === "refused",
    };
  }

  /**
   * Sends the request and waits for its response headers, under
   * `connectTimeoutMs` too while the host has not answered (module doc).
   */
  async #headersOf(
    url: URL,
    headers: RequestHeaders,
    deadline: AbortController,
  ): Promise<Response> {
    const init = {
      headers,
      redirect: "manual",
      signal: deadline.signal,
      // Bun's own switch for transport decoding; other runtimes ignore it (see the module doc).
      decompress: false,
    } as RequestInit;
    const key = hostKey(url);
    // Nothing allocated between the scheduler's note of the send and the send.
    const href = url.href;
    if (this.#connectTimeoutMs >= this.#options.timeoutMs || this.#answered.has(key)) {
      this.#scheduler.sending(url);
      return await this.#fetch(href, init);
    }
    // Checked when it fires: a host that answered another request meanwhile is alive.
    const timer = setTimeout(() => {
      if (!this.#answered.has(key)) deadline.abort(new DeadlineError("connect"));
    }, this.#connectTimeoutMs);
    try {
      this.#scheduler.sending(url);
      return await this.#fetch(href, init);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A response outside 2xx (and not a redirect): a bot wall (read from the
   * start of its body), or why, and whether to retry (408, 429, 5xx).
   */
  async #httpError(url: URL, response: Response): Promise<Attempt> {
    const status = response.status;
    // A site's own "not found" page is no wall: only its headers are looked at.
    const start = status === 404 || status === 410
      ? (await discard(response), NO_BYTES)
      : await this.#bodyStart(response);
    const wall = detectChallenge(status, response.headers, start);
    if (wall !== null) return challenged(url, status, wall);
    return httpError(url, response);
  }

  /**
   * The first {@linkcode CHALLENGE_SNIFF_BYTES} of a body (fewer when it
   * ends, fails, or has not come within {@linkcode CHALLENGE_SNIFF_MS});
   * the rest is not read.
   */
  async #bodyStart(response: Response): Promise<Uint8Array> {
    if (response.body === null) return NO_BYTES;
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    // A wall's page comes with its headers; an error body that trickles is not waited for.
    const timer = setTimeout(() => reader.cancel().catch(() => {}), CHALLENGE_SNIFF_MS);
    try {
      while (size < CHALLENGE_SNIFF_BYTES) {
        const { done, value } = await reader.read();
        if (done) break;
        this.stats.bytesDownloaded += value.byteLength;
        chunks.push(value);
        size += value.byteLength;
      }
    } catch {
      // A body that breaks off is read as far as it came.
    } finally {
      clearTimeout(timer);
      await reader.cancel().catch(() => {});
    }
    return concatBytes(chunks, size);
  }

  /** Reads the body up to the byte cap; returns the bytes, or the reason it stopped. */
  async #readBody(response: Response, deadline: AbortController): Promise<Uint8Array | string> {
    const limit = this.#options.maxDownloadBytes;
    const tooBig = `Sitemap download exceeds ${limit} bytes`;
    const declared = Number(response.headers.get("content-length") ?? NaN);
    if (declared > limit) {
      await discard(response);
      return tooBig;
    }
    if (response.body === null) return new Uint8Array(0);
    if (
      Number.isInteger(declared) && declared >= 0 && declared <= WHOLE_READ_BYTES &&
      !response.headers.has("transfer-encoding") && !response.headers.has("content-encoding")
    ) {
      // A small body in one read: Deno's reader takes a 64 KiB buffer for
      // every read however short the body (bench/README.md#batch-memory).
      // The runtime's HTTP parser stops at the Content-Length (unless the
      // body is chunked, which overrides it): the read is bounded. An encoded
      // body is streamed under the cap, as a fetch that inflates it anyway
      // (Node's) would hand over more than the Content-Length.
      const bytes = new Uint8Array(await response.arrayBuffer());
      this.stats.bytesDownloaded += bytes.byteLength;
      return bytes.byteLength > limit ? tooBig : bytes;
    }
    const reader = response.body.getReader();
    // With a Content-Length the body lands in one exact buffer, no second copy.
    // Without one (or past it) chunks are kept as they come and joined once at
    // the end, so a body refused at the cap never held more than the cap.
    const exact = Number.isInteger(declared) && declared >= 0 ? new Uint8Array(declared) : null;
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.stats.bytesDownloaded += value.byteLength;
        if (size + value.byteLength > limit) {
          // Abort the request too: some runtimes keep reading ahead until the connection closes.
          deadline.abort(new DeadlineError("size"));
          await reader.cancel().catch(() => {});
          return tooBig;
        }
        if (exact !== null && chunks.length === 0 && size + value.byteLength <= exact.byteLength) {
          exact.set(value, size);
        } else {
          if (exact !== null && chunks.length === 0 && size > 0) {
            chunks.push(exact.subarray(0, size));
          }
          chunks.push(value);
        }
        size += value.byteLength;
      }
    } catch (error) {
      await reader.cancel().catch(() => {});
      throw error;
    }
    if (chunks.length === 0) {
      if (exact === null) return new Uint8Array(0);
      return size === exact.byteLength ? exact : exact.slice(0, size);
    }
    return concatBytes(chunks, size, true);
  }

  /**
   * Applies the fail-fast rule (module doc) to one failed attempt;
   * `connect`: it found no response within `connectTimeoutMs`.
   */
  #noteFailure(url: URL, failure: FetchFailure, connect = false): void {
    const key = hostKey(url);
    if (
      failure.kind === "permission" || failure.kind === "host-not-found" || failure.kind === "tls"
    ) {
      this.#down.set(key, failure);
    } else if (connect) {
      // Checked again: another request may have been answered since the timer fired.
      if (!this.#answered.has(key)) this.#down.set(key, failure);
    } else if (
      (failure.kind === "refused" || failure.kind === "timeout") && !this.#answered.has(key)
    ) {
      const refusals = (this.#refusals.get(key) ?? 0) + 1;
      this.#refusals.set(key, refusals);
      if (refusals >= REFUSALS_TO_GIVE_UP) this.#down.set(key, failure);
    }
  }
}

/** Aborts each attempt in flight (its deadline) when its caller's signal aborts. */
const CALLER_ABORTS = new AbortWaiters<AbortController>((deadline, reason) =>
  deadline.abort(reason)
);

function final(
  url: URL,
  status: number | null,
  reason: string,
  failure?: FetchFailure,
): Attempt {
  const result: FetchResult = failure === undefined
    ? { ok: false, url: url.href, status, reason }
    : { ok: false, url: url.href, status, reason, failure };
  return { result, retry: false };
}

const NO_BYTES = new Uint8Array(0);

/** Stands in for the signal of a client made without one. */
const NEVER_ABORTED = new AbortController().signal;

/** Bodies of a declared length up to this are read in one call (see `#readBody`). */
const WHOLE_READ_BYTES = 64 * 1024;

/** How long the start of an error response's body is waited for, to look for a bot wall. */
const CHALLENGE_SNIFF_MS = 2_000;

/** A response that was a bot wall: its reason, never retried. */
function challenged(url: URL, status: number, challenge: Challenge): Attempt {
  return {
    result: { ok: false, url: url.href, status, reason: challenge.reason, challenge },
    retry: false,
  };
}

/** A response outside 2xx (and not a redirect), its body read: why, and whether to retry (408, 429, 5xx). */
function httpError(url: URL, response: Response): Attempt {
  const status = response.status;
  const text = response.statusText || STATUS_TEXT[status] || "";
  const reason = `Unable to fetch sitemap from ${url.href}: ${status} ${text}`.trimEnd();
  const retry = status === 408 || status === 429 || status >= 500;
  const retryAfterMs = retry ? parseRetryAfter(response.headers.get("retry-after")) : undefined;
  return {
    result: { ok: false, url: url.href, status, reason },
    retry,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/** Scheme, name and port: what the per-host limits and the fail-fast rule count by. */
function hostKey(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

function withoutCredentials(headers: RequestHeaders): RequestHeaders {
  const copy = { ...headers };
  for (const name of CREDENTIAL_HEADERS) delete copy[name];
  return Object.freeze(copy);
}

/** A header value as `Headers` keeps it: without leading and trailing HTTP whitespace. */
function trimHeaderValue(value: string): string {
  return value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
}

/** Exponential backoff with jitter: 200 ms, 400 ms, 800 ms … times 0.5–1. */
function backoffMs(attempt: number): number {
  return BACKOFF_BASE_MS * 2 ** Math.min(attempt, 10) * (0.5 + Math.random() / 2);
}

/**
 * `Retry-After` in milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Returns undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function shorten(text: string): string {
  return text.length > 100 ? text.slice(0, 100) + "…" : text;
}
