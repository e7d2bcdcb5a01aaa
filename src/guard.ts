/**
 * The private-network guard: a public website's robots.txt or sitemap index
 * can name any URL, including `http://169.254.169.254/latest/meta-data/` or a
 * router's admin page. Fetching those on the site's behalf (server-side request
 * forgery) is refused unless the caller allows it.
 *
 * What counts as private (refused):
 *
 * - IPv4: 0.0.0.0/8 (unspecified), 10/8, 172.16/12, 192.168/16 (RFC 1918),
 *   100.64/10 (carrier-grade NAT), 127/8 (loopback), 169.254/16 (link-local,
 *   with the cloud metadata services), 192.0.0/24 (IETF protocol assignments),
 *   198.18/15 (benchmarking), 224/4 (multicast), 240/4 and 255.255.255.255.
 * - IPv6: `::` and `::1`, the rest of `::/8` (IPv4-compatible and other
 *   reserved forms), fc00::/7 (unique-local), fe80::/10 (link-local),
 *   fec0::/10 (old site-local), ff00::/8 (multicast), 100::/64 (discard),
 *   64:ff9b:1::/48 (local-use NAT64), 2001::/32 (Teredo, which tunnels to any
 *   IPv4 address); IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` and
 *   6to4 `2002:aabb:ccdd::` are judged by the IPv4 address they carry.
 * - Names: `localhost` and `*.localhost`, `*.local` (mDNS), `*.internal`,
 *   `*.home.arpa`, cloud metadata names, and any single-label name (`intranet`,
 *   `metadata`): without a dot a name can only resolve through local search
 *   domains or the hosts file.
 *
 * Documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24,
 * 2001:db8::/32) are treated as public: no network routes them to a private
 * host, so refusing them protects nothing, and tests use them as stand-ins
 * for public servers without touching the internet.
 *
 * `new URL()` already turns the odd IPv4 spellings into a dotted quad
 * (`http://2130706433/`, `http://0177.0.0.1/`, `http://0x7f.1/`, `http://127.1/`
 * all have hostname `127.0.0.1`) and serialises IPv6 compressed and in hex
 * (`[::ffff:10.0.0.1]` becomes `[::ffff:a00:1]`); this module parses what it
 * gives back, and normalises the same spellings itself when handed a bare string.
 *
 * @module
 */
import { runtime } from "./runtime/mod.ts";

/**
 * When sitemap URLs on private networks may be fetched: `true` always, `false`
 * never, `"if-homepage-is"` only when the homepage itself is on a private
 * address or name (a crawl of an intranet site).
 */
export type PrivateNetworkPolicy = boolean | "if-homepage-is";

/** Options of {@linkcode createUrlGuard}. */
export interface UrlGuardOptions {
  /**
   * Resolves a DNS name to its addresses, e.g. {@linkcode defaultResolver}.
   * When given, a name is refused if any of its addresses is private. When
   * `null` or absent, names are judged by their spelling only and no DNS query
   * is sent.
   *
   * @default {null}
   */
  readonly resolve?: ((hostname: string) => Promise<readonly string[]>) | null;
  /**
   * Whether a URL goes through a proxy. Such a URL's name is judged by its
   * spelling only: the proxy alone resolves it (the name may not even exist
   * in local DNS), while IP literals and reserved names (`localhost`,
   * `*.internal` …) are still refused under the policy.
   *
   * @default {() => false}
   */
  readonly proxied?: ((url: URL) => boolean) | null;
}

/** Why a host is private, for the refusal message; `null` when it is public. */
type HostClass =
  | { readonly kind: "address" | "name"; readonly label: string }
  | { readonly kind: "public-address" }
  | null;

/**
 * Whether a host is on a private network by its spelling alone: an IP literal
 * in a private, loopback, link-local or otherwise non-public range, or a name
 * such as `localhost`, `*.local`, `*.internal` or a cloud metadata name. No DNS
 * query is made, so a public-looking name that resolves to a private address
 * is not detected here (see {@linkcode createUrlGuard} with a resolver).
 *
 * @param hostname A host as `URL.hostname` gives it (IPv6 in brackets), or a
 *   bare address as a resolver returns it (`::1`, `10.0.0.5`).
 * @returns `true` when fetching from the host would reach a private network.
 *
 * @example Check hosts
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { isPrivateHost } from "./guard.ts";
 *
 * strictEqual(isPrivateHost(new URL("http://2130706433/").hostname), true); // 127.0.0.1
 * strictEqual(isPrivateHost("[::ffff:a00:1]"), true); // IPv4-mapped 10.0.0.1
 * strictEqual(isPrivateHost("printer.local"), true);
 * strictEqual(isPrivateHost("www.example.com"), false);
 * ```
 */
export function isPrivateHost(hostname: string): boolean {
  const found = classifyHost(hostname);
  return found !== null && found.kind !== "public-address";
}

/**
 * Builds the check run on every URL the crawler is about to fetch (robots.txt,
 * sitemaps, and each redirect target).
 *
 * Only `http:` and `https:` URLs pass. Under a policy other than `true`, a URL
 * on a private host is refused unless the policy is `"if-homepage-is"` and the
 * homepage is private too (by spelling or, with a resolver, by any of its
 * addresses; the homepage is resolved only once a private URL turns up).
 *
 * With a resolver, each name is resolved once per guard and refused if any
 * address is private; a name that cannot be resolved makes the guard reject
 * with the resolver's error (the web client reports it as `host not found`),
 * since a lookup that fails here may still succeed for the fetch, and to a
 * private address. URLs that go through a proxy (`options.proxied`) are not
 * resolved locally. This does not stop DNS
 * rebinding: the connection made afterwards resolves the name again and a
 * hostile DNS server may then answer differently (a short TTL). Closing that
 * gap needs the check inside the connection itself (pinning the checked
 * address), which `fetch` does not offer.
 *
 * @param homepage The homepage the crawl started from.
 * @param policy The `allowPrivateNetworks` option.
 * @param options The resolver, if names should be resolved.
 * @returns A function giving a refusal reason for a URL, or `null` to allow it;
 *   it rejects with the resolver's error when a name does not resolve.
 *
 * @example Refuse the cloud metadata service
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { createUrlGuard } from "./guard.ts";
 *
 * const guard = createUrlGuard(new URL("https://example.com/"), "if-homepage-is");
 * strictEqual(
 *   await guard(new URL("http://169.254.169.254/latest/meta-data/")),
 *   "Refused private-network address 169.254.169.254 (link-local, cloud metadata service; " +
 *     'allowPrivateNetworks is "if-homepage-is" and the homepage is public)',
 * );
 * strictEqual(await guard(new URL("https://example.com/sitemap.xml")), null);
 * ```
 */
export function createUrlGuard(
  homepage: URL,
  policy: PrivateNetworkPolicy,
  options: UrlGuardOptions = {},
): (url: URL) => Promise<string | null> {
  const resolve = options.resolve ?? null;
  const proxied = options.proxied ?? null;
  const lookup = onceEach(resolve);
  const homeClass = classifyHost(homepage.hostname);
  // An intranet crawl by spelling (http://wiki.local/): nothing to check, no DNS to send.
  const openByHomepage = policy === "if-homepage-is" && homeClass !== null &&
    homeClass.kind !== "public-address";
  const allowedAnyway = policy !== "if-homepage-is" || homeClass !== null
    ? () => Promise.resolve(openByHomepage)
    // A homepage named in DNS is resolved only once a private URL turns up.
    : homepageResolvesPrivate(homepage, resolve === null ? null : lookup, proxied);
  const why = policy === false
    ? "allowPrivateNetworks is false"
    : 'allowPrivateNetworks is "if-homepage-is" and the homepage is public';

  return async (url: URL): Promise<string | null> => {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return `Refused non-http(s) URL: ${url.href}`;
    }
    if (policy === true) return null;
    const host = url.hostname;
    const found = classifyHost(host);
    if (openByHomepage) {
      // An intranet homepage opens the private network, but not the cloud
      // metadata service: credentials live there, and no sitemap does.
      if (found !== null && found.kind !== "public-address" && found.label.includes("metadata")) {
        return `Refused cloud metadata address ${host} (${found.label}; only allowPrivateNetworks: true allows it)`;
      }
      return null;
    }
    if (found?.kind === "public-address") return null;
    if (found !== null) {
      if (await allowedAnyway()) return null;
      return `Refused private-network ${found.kind} ${host} (${found.label}; ${why})`;
    }
    if (resolve === null || proxied?.(url) === true) return null;

    const addresses = await lookup(bareName(host));
    for (const address of addresses) {
      const addressClass = classifyHost(address);
      if (addressClass === null || addressClass.kind === "public-address") continue;
      if (await allowedAnyway()) return null;
      return `Refused private-network address ${address} of ${host} (${addressClass.label}; ${why})`;
    }
    return null;
  };
}

/** `resolve`, asked once per name (a guard's lifetime); no resolver answers `[]`. */
function onceEach(
  resolve: ((hostname: string) => Promise<readonly string[]>) | null,
): (host: string) => Promise<readonly string[]> {
  const resolved = new Map<string, Promise<readonly string[]>>();
  return (host) => {
    let addresses = resolved.get(host);
    if (addresses === undefined) {
      addresses = resolve === null ? Promise.resolve([]) : resolve(host);
      resolved.set(host, addresses);
    }
    return addresses;
  };
}

/**
 * Whether a homepage named in DNS resolves to a private address, asked once
 * when first needed; unknown (no resolver, behind a proxy, no answer) is
 * public, the stricter reading.
 */
function homepageResolvesPrivate(
  homepage: URL,
  lookup: ((host: string) => Promise<readonly string[]>) | null,
  proxied: ((url: URL) => boolean) | null,
): () => Promise<boolean> {
  let answer: Promise<boolean> | undefined;
  return () =>
    answer ??= (async () => {
      if (lookup === null || proxied?.(homepage) === true) return false;
      try {
        return (await lookup(bareName(homepage.hostname))).some((address) =>
          isPrivateHost(address)
        );
      } catch {
        return false;
      }
    })();
}

/** How long {@linkcode defaultResolver} waits for the system resolver. */
const RESOLVE_TIMEOUT_MS = 5000;

/**
 * Resolves a name through the system resolver (`getaddrinfo`, so the hosts
 * file counts, as it does for `fetch`), giving up after 5 seconds.
 *
 * @param hostname A DNS name, without brackets.
 * @returns Every IPv4 and IPv6 address the name has.
 * @throws {Error} When the name does not resolve (`code` `ENOTFOUND` …) or the
 *   lookup times out (`code` `ETIMEOUT`).
 */
export const defaultResolver: (hostname: string) => Promise<readonly string[]> = async (
  hostname: string,
): Promise<readonly string[]> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(
            new Error(`DNS lookup of ${hostname} timed out after ${RESOLVE_TIMEOUT_MS} ms`),
            { code: "ETIMEOUT" },
          ),
        ),
      RESOLVE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([runtime.resolveHost(hostname), timeout]);
  } finally {
    clearTimeout(timer);
  }
};

// --- classification --------------------------------------------------------

/** Strips one trailing dot: `localhost.` is `localhost`. */
function bareName(host: string): string {
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

function classifyHost(hostname: string): HostClass {
  let host = hostname.trim().toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (host.includes(":")) {
    const groups = parseIPv6(host);
    // Not an address a connection could be made to: nothing to refuse.
    if (groups === null) return null;
    const label = ipv6Class(groups);
    return label === null ? { kind: "public-address" } : { kind: "address", label };
  }
  host = bareName(host);
  let v4 = parseIPv4(host);
  if (v4 === null && /^[0-9a-fx.]+$/.test(host)) v4 = parseIPv4(normaliseWithUrl(host));
  if (v4 !== null) {
    const label = ipv4Class(v4);
    return label === null ? { kind: "public-address" } : { kind: "address", label };
  }
  const label = nameClass(host);
  return label === null ? null : { kind: "name", label };
}

/** Lets the WHATWG host parser read `2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`. */
function normaliseWithUrl(host: string): string {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return host;
  }
}

const METADATA_NAMES: ReadonlySet<string> = new Set([
  "metadata", // GCP, through its search domain
  "metadata.google.internal",
  "metadata.goog",
  "instance-data", // AWS
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
]);

function nameClass(name: string): string | null {
  if (name === "") return "empty host";
  if (METADATA_NAMES.has(name)) return "cloud metadata name";
  if (name === "localhost" || name.endsWith(".localhost")) return "loopback name, RFC 6761";
  if (name.endsWith(".local")) return "mDNS name, RFC 6762";
  if (name.endsWith(".internal")) return "private-use name";
  if (name === "home.arpa" || name.endsWith(".home.arpa")) return "home network name, RFC 8375";
  if (!name.includes(".")) return "single-label name, resolved only on the local network";
  return null;
}

function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

function formatIPv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

/** [network, prefix length, label]; the first match wins, so specific entries come first. */
const IPV4_RANGES: readonly (readonly [string, number, string])[] = [
  ["169.254.169.254", 32, "link-local, cloud metadata service"],
  ["169.254.170.2", 32, "link-local, container metadata service"],
  ["100.100.100.200", 32, "carrier-grade NAT, cloud metadata service"],
  ["255.255.255.255", 32, "broadcast"],
  ["0.0.0.0", 8, "unspecified, 0.0.0.0/8"],
  ["10.0.0.0", 8, "private, RFC 1918"],
  ["100.64.0.0", 10, "carrier-grade NAT, RFC 6598"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private, RFC 1918"],
  ["192.0.0.0", 24, "IETF protocol assignments, RFC 6890"],
  ["192.168.0.0", 16, "private, RFC 1918"],
  ["198.18.0.0", 15, "benchmarking, RFC 2544"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved, 240.0.0.0/4"],
];

const IPV4_TABLE = IPV4_RANGES.map(([network, prefix, label]) => {
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
  return { network: (parseIPv4(network) ?? 0) >>> 0, mask, label };
});

function ipv4Class(value: number): string | null {
  for (const { network, mask, label } of IPV4_TABLE) {
    if (((value & mask) >>> 0) === network) return label;
  }
  return null;
}

/** Eight 16-bit groups, or `null` when `text` is not an IPv6 address. */
function parseIPv6(text: string): number[] | null {
  let host = text;
  const zone = host.indexOf("%");
  if (zone !== -1) host = host.slice(0, zone);

  // An embedded IPv4 tail (::ffff:10.0.0.1) is the last two groups, spelled differently.
  const lastColon = host.lastIndexOf(":");
  const last = host.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = parseIPv4(last);
    if (v4 === null) return null;
    host = `${host.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${
      (v4 & 0xffff).toString(16)
    }`;
  }

  const halves = host.split("::");
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0]);
  const rest = parseGroups(halves[1]);
  if (head === null || rest === null) return null;
  const known = head.length + rest.length;
  if (halves.length === 1) return known === 8 ? head : null;
  // "::" stands for at least one zero group.
  if (known > 7) return null;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest];
}

function parseGroups(text: string | undefined): number[] | null {
  if (text === undefined || text === "") return [];
  const groups: number[] = [];
  for (const group of text.split(":")) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    groups.push(parseInt(group, 16));
  }
  return groups;
}

function ipv6Class(g: readonly number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (hi: number, lo: number, how: string): string | null => {
    const v4 = (hi * 65536 + lo) >>> 0;
    const label = ipv4Class(v4);
    return label === null ? null : `${how} ${formatIPv4(v4)}, ${label}`;
  };
  const zeroTo = (n: number): boolean => g.slice(0, n).every((group) => group === 0);

  if (zeroTo(7) && g7 === 0) return "unspecified";
  if (zeroTo(7) && g7 === 1) return "loopback";
  // A public IPv4-mapped address connects to that public IPv4 host: allowed.
  if (zeroTo(5) && g5 === 0xffff) return embedded(g6, g7, "IPv4-mapped");
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return embedded(g6, g7, "NAT64 of");
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return "local-use NAT64, RFC 8215";
  // After NAT64: 64:ff9b::/96 lies inside ::/8 too.
  if (g0 < 0x100) return "reserved, ::/8";
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return "discard-only, RFC 6666";
  if (g0 === 0x2001 && g1 === 0) return "Teredo tunnel, RFC 4380";
  if (g0 === 0x2002) return embedded(g1, g2, "6to4 of");
  if (g0 === 0xfd00 && g1 === 0xec2 && g2 + g3 + g4 + g5 + g6 === 0 && g7 === 0x254) {
    return "unique-local, cloud metadata service"; // AWS over IPv6
  }
  if ((g0 & 0xfe00) === 0xfc00) return "unique-local";
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xffc0) === 0xfec0) return "site-local (deprecated)";
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  return null;
}
