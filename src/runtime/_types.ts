/**
 * The interface every runtime adapter (deno.ts, bun.ts, node.ts) implements
 * with the same function names; `mod.ts` picks one.
 *
 * @module
 */

/** What the pool hears from one worker. Each handler may be called from the worker's events only. */
export interface WorkerEvents {
  /** A message the worker posted. */
  message(data: unknown): void;
  /** The worker failed: an uncaught error, a module that would not load, or a reply that could not be read. */
  error(message: string): void;
  /** The worker's thread ended without being terminated (where the runtime tells). */
  exit(code: number): void;
}

/** A started worker, as the pool drives it. */
export interface ParseWorker {
  /** Posts a message; the listed buffers move to the worker. */
  postMessage(message: unknown, transfer: readonly ArrayBuffer[]): void;
  /** Ends the worker; its events stop. */
  terminate(): void;
}

/** The worker side of the channel, inside a worker. */
export interface ParentPort {
  /** Posts a message to the thread that started this worker. */
  postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void;
  /** Calls `listener` with each message's data. */
  onMessage(listener: (data: unknown) => void): void;
}

/** A pool of connections of its own, closed when its user is done (one site of many). */
export interface Connections {
  /** The fetch that uses the pool, or null where the runtime's own fetch is used. */
  readonly fetch: typeof fetch | null;
  /** Closes the pool's idle connections; requests after it are not allowed. */
  close(): void;
}

/** The parts of `node:zlib` (and `node:buffer`) the bounded decompressor and the worker use. */
export interface Zlib {
  /** `zlib.gunzipSync`: inflates gzip, stopping at `maxOutputLength`. */
  gunzipSync(
    bytes: Uint8Array,
    options: { maxOutputLength: number; chunkSize: number; finishFlush?: number },
  ): Uint8Array;
  /** `zlib.gzipSync`. */
  gzipSync(bytes: Uint8Array, options: { level: number }): Uint8Array;
  /** `zlib.constants.Z_SYNC_FLUSH`. */
  readonly syncFlush: number;
  /** `buffer.constants.MAX_LENGTH`: the largest output `gunzipSync` accepts as its limit. */
  readonly maxLength: number;
}

/** The parts of `node:fs/promises` the file cache uses; errors carry Node's `code` (`ENOENT` …). */
export interface FileSystem {
  /** The file's bytes. */
  readFile(path: string): Promise<Uint8Array>;
  /** Writes (or replaces) the file. */
  writeFile(path: string, data: Uint8Array): Promise<void>;
  /** Creates the directory and its parents. */
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  /** Renames a file, replacing the target. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file; `force`: no error when it is missing. */
  rm(path: string, options: { force: true }): Promise<void>;
}

/** The functions each runtime adapter exports. */
export interface Runtime {
  /** The runtime's name, for messages. */
  readonly name: "deno" | "bun" | "node";
  /**
   * How many parse workers a call that starts its own starts ahead of its
   * first document, while robots.txt and the index are on the wire (the rest
   * start when documents back up): one where a warm worker keeps pace with a
   * plain crawl's bodies at four connections, two where it does not.
   */
  readonly callWarmWorkers: number;
  /**
   * How long after its start a call starts those workers. Where starting a
   * worker holds the calling thread long enough to hold back the first
   * requests, which the runtime sends from that thread's event loop (Deno),
   * they go out first; elsewhere 0.
   */
  readonly callWarmDelayMs: number;
  /**
   * The largest share of a urlset's kept extension bytes its gzip body may
   * be and be kept in their place, sparing the parse their deflate (a first
   * read then inflates the whole body): where the deflate is slow, more
   * memory buys parse time.
   */
  readonly keptGzipShare: number;
  /** Logical cores the runtime reports, or 1 when it reports none. */
  coreCount(): number;
  /** Why `url` cannot run as a worker here, or null when it may be tried. */
  workerUnavailable(url: URL): string | null;
  /** Starts a module worker. @throws When the runtime refuses at once. */
  startWorker(url: URL, events: WorkerEvents): ParseWorker;
  /** This worker's channel to its parent; only valid inside a worker. */
  parentPort(): ParentPort;
  /** What a user must add when the runtime forbids a connection, or null when it never does. */
  readonly PERMISSION_ADVICE: string | null;
  /** An environment variable, without prompting; undefined when unset or not permitted. */
  readEnv(name: string): string | undefined;
  /** Whether using one of these permissions may draw a permission prompt; false where the runtime never prompts. */
  permissionMayPrompt(permissions: readonly ("net" | "read")[]): Promise<boolean>;
  /**
   * The fetch a web client uses when the caller gives none: the runtime's
   * own, except on Node (`node:http`, which hands over the bytes on the wire).
   * `environmentProxy` names the proxy of a URL from `HTTPS_PROXY`,
   * `HTTP_PROXY` and `NO_PROXY`: Node's transport routes each request by it,
   * Deno's and Bun's `fetch` read those variables themselves.
   */
  defaultFetch(environmentProxy: (url: URL) => string | null): typeof fetch;
  /** A fetch whose every request goes through the HTTP proxy at `proxyUrl`. @throws Where the runtime has no proxy setting. */
  createProxyFetch(proxyUrl: string): typeof fetch;
  /**
   * Connections for one site of many, closed once the site is done: a
   * runtime whose fetch keeps idle connections to every host it met
   * (Deno: one per host for 90 s) would otherwise hold thousands of them
   * through a long batch.
   */
  openConnections(): Connections;
  /**
   * Node's zlib where the runtime provides it (Deno, Bun and Node do), loaded
   * on first use; null where it cannot be loaded, so that the caller falls
   * back to web streams.
   */
  loadZlib(): Promise<Zlib | null>;
  /** The file functions of `node:fs/promises`, loaded on first use. */
  loadFileSystem(): Promise<FileSystem>;
  /**
   * Every IPv4 and IPv6 address of a DNS name, through the system resolver
   * (`getaddrinfo`, so the hosts file counts, as it does for `fetch`).
   * @throws When the name does not resolve (`code` `ENOTFOUND` …).
   */
  resolveHost(hostname: string): Promise<readonly string[]>;
  /**
   * Lowers the calling (worker) thread's scheduling priority to `nice` where
   * the system sets it per thread (Linux). Best effort and silent: it never
   * rejects, and never asks for a permission.
   */
  lowerThreadPriority(nice: number): Promise<void>;
}
