/**
 * Small helpers shared by the networked tests: sitemap documents built from
 * paths, and a one-line-per-node outline of a tree for exact comparison.
 */
import type { AbstractSitemap } from "../src/objects/sitemap.ts";
import { AbstractPagesSitemap, InvalidSitemap } from "../src/objects/sitemap.ts";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { FixtureSite, type ListeningSite } from "../fixtures/site.ts";

const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

/** A `<urlset>` of pages `https://site.test<path>` (pages never need to be fetched). */
export function urlset(paths: readonly string[], lastmods: readonly string[] = []): string {
  const urls = paths.map((p, i) =>
    `<url><loc>https://site.test${p}</loc>${
      lastmods[i] ? `<lastmod>${lastmods[i]}</lastmod>` : ""
    }</url>`
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">${
    urls.join("")
  }</urlset>\n`;
}

/** A `<sitemapindex>` naming `locs` as written (relative locs resolve against the index URL). */
export function sitemapIndex(locs: readonly string[]): string {
  const entries = locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">${
    entries.join("")
  }</sitemapindex>\n`;
}

/**
 * The tree as indented lines: `type path` per sitemap (the origin stripped),
 * `- url` per page, and `invalid path: reason` for invalid nodes.
 */
export function outline(root: AbstractSitemap, origin: string): string[] {
  const lines: string[] = [];
  const short = (url: string): string => url.startsWith(origin) ? url.slice(origin.length) : url;
  const walk = (node: AbstractSitemap, depth: number): void => {
    const pad = "  ".repeat(depth);
    if (node instanceof InvalidSitemap) {
      lines.push(`${pad}invalid ${short(node.url)}: ${node.reason.replaceAll(origin, "")}`);
      return;
    }
    lines.push(`${pad}${node.type} ${short(node.url)}`);
    for (const sub of node.subSitemaps) walk(sub, depth + 1);
    if (node instanceof AbstractPagesSitemap) {
      for (const page of node.allPages()) lines.push(`${pad}  - ${short(page.url)}`);
    }
  };
  walk(root, 0);
  return lines;
}

/**
 * A fetch that fails as Deno's does without `--allow-net` (a `NotCapable`
 * error), counting its calls.
 */
export function deniedFetch(): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  const fetch: typeof globalThis.fetch = () => {
    calls++;
    const error = new Error(
      'Requires net access to "site.test:443", run again with the --allow-net flag',
    );
    error.name = "NotCapable";
    return Promise.reject(error);
  };
  return { fetch, calls: () => calls };
}

/** Serves `site` for the duration of `body`, then closes it whatever happens. */
export async function withSite<T>(
  site: FixtureSite,
  body: (server: ListeningSite, site: FixtureSite) => Promise<T>,
): Promise<T> {
  const server = await site.listen();
  try {
    return await body(server, site);
  } finally {
    await server.close();
  }
}

/**
 * robots.txt -> /index.xml -> [/good.xml (one page, at once), /drip.xml (one
 * page, sent a byte at a time: seconds)], for tests of a crawl's deadline.
 */
export function dripSite(): FixtureSite {
  return new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(["/good.xml", "/drip.xml"]))
    .file("/good.xml", urlset(["/good"]))
    .trickle("/drip.xml", urlset(["/drip"]), { bytesPerSecond: 1 });
}

/** Hosts that accept connections and never answer, one port each on 127.0.0.1. */
export interface SilentHosts {
  /** `http://127.0.0.1:PORT/`, one per host. */
  readonly homepages: readonly string[];
  /** Closes every connection and server. */
  close(): Promise<void>;
}

/**
 * Starts `count` hosts that accept TCP connections and never send a byte: a
 * server that is up but hung, which only a timeout tells from a slow one.
 */
export async function silentHosts(count: number): Promise<SilentHosts> {
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  for (let i = 0; i < count; i++) {
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
  }
  return {
    homepages: servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/`),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

export { FixtureSite };
