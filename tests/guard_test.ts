import assert from "node:assert/strict";
import { createUrlGuard, isPrivateHost, type PrivateNetworkPolicy } from "../src/guard.ts";

// These tests never call defaultResolver: names go through fakeResolver, which
// answers from a table, so no DNS query leaves the process.

const PUBLIC_HOME = new URL("https://www.example.com/");
const IF_PUBLIC = 'allowPrivateNetworks is "if-homepage-is" and the homepage is public';

function fakeResolver(table: Readonly<Record<string, readonly string[]>>): {
  resolve: (hostname: string) => Promise<readonly string[]>;
  calls: string[];
} {
  const calls: string[] = [];
  const resolve = (hostname: string): Promise<readonly string[]> => {
    calls.push(hostname);
    const addresses = table[hostname];
    return addresses === undefined
      ? Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }),
      )
      : Promise.resolve(addresses);
  };
  return { resolve, calls };
}

async function refusal(url: string, policy: PrivateNetworkPolicy = "if-homepage-is") {
  return await createUrlGuard(PUBLIC_HOME, policy)(new URL(url));
}

Deno.test("createUrlGuard() names the address and its class when refusing an IPv4 literal", async () => {
  const cases: readonly (readonly [string, string])[] = [
    ["http://127.0.0.1/", "127.0.0.1 (loopback"],
    ["http://127.255.0.9/", "127.255.0.9 (loopback"],
    ["http://10.1.2.3/", "10.1.2.3 (private, RFC 1918"],
    ["http://172.16.0.1/", "172.16.0.1 (private, RFC 1918"],
    ["http://172.31.255.255/", "172.31.255.255 (private, RFC 1918"],
    ["http://192.168.1.1/", "192.168.1.1 (private, RFC 1918"],
    [
      "http://169.254.169.254/latest/meta-data/",
      "169.254.169.254 (link-local, cloud metadata service",
    ],
    ["http://169.254.170.2/v2/metadata", "169.254.170.2 (link-local, container metadata service"],
    ["http://169.254.1.1/", "169.254.1.1 (link-local"],
    ["http://100.64.0.1/", "100.64.0.1 (carrier-grade NAT, RFC 6598"],
    ["http://100.127.255.255/", "100.127.255.255 (carrier-grade NAT, RFC 6598"],
    ["http://100.100.100.200/", "100.100.100.200 (carrier-grade NAT, cloud metadata service"],
    ["http://0.0.0.0/", "0.0.0.0 (unspecified, 0.0.0.0/8"],
    ["http://0.1.2.3/", "0.1.2.3 (unspecified, 0.0.0.0/8"],
    ["http://192.0.0.8/", "192.0.0.8 (IETF protocol assignments, RFC 6890"],
    ["http://198.18.0.1/", "198.18.0.1 (benchmarking, RFC 2544"],
    ["http://224.0.0.1/", "224.0.0.1 (multicast"],
    ["http://239.255.255.250/", "239.255.255.250 (multicast"],
    ["http://240.0.0.1/", "240.0.0.1 (reserved, 240.0.0.0/4"],
    ["http://255.255.255.255/", "255.255.255.255 (broadcast"],
  ];
  for (const [url, expected] of cases) {
    assert.equal(
      await refusal(url),
      `Refused private-network address ${expected}; ${IF_PUBLIC})`,
      url,
    );
  }
});

Deno.test("createUrlGuard() refuses IPv6 literals by class", async () => {
  const cases: readonly (readonly [string, string])[] = [
    ["http://[::1]/", "[::1] (loopback"],
    ["http://[0:0:0:0:0:0:0:1]/", "[::1] (loopback"],
    ["http://[::]/", "[::] (unspecified"],
    ["http://[fe80::1]/", "[fe80::1] (link-local"],
    ["http://[febf::1]/", "[febf::1] (link-local"],
    ["http://[fc00::1]/", "[fc00::1] (unique-local"],
    ["http://[fdff:1::2]/", "[fdff:1::2] (unique-local"],
    ["http://[fd00:ec2::254]/", "[fd00:ec2::254] (unique-local, cloud metadata service"],
    ["http://[fec0::1]/", "[fec0::1] (site-local (deprecated)"],
    ["http://[ff02::1]/", "[ff02::1] (multicast"],
    ["http://[100::1]/", "[100::1] (discard-only, RFC 6666"],
    ["http://[64:ff9b:1::a00:1]/", "[64:ff9b:1::a00:1] (local-use NAT64, RFC 8215"],
    [
      "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
      "[2001:0:4136:e378:8000:63bf:3fff:fdd2] (Teredo tunnel, RFC 4380",
    ],
    // IPv4-compatible (deprecated) and the rest of ::/8.
    ["http://[::127.0.0.1]/", "[::7f00:1] (reserved, ::/8"],
    ["http://[::8.8.8.8]/", "[::808:808] (reserved, ::/8"],
  ];
  for (const [url, expected] of cases) {
    assert.equal(
      await refusal(url),
      `Refused private-network address ${expected}; ${IF_PUBLIC})`,
      url,
    );
  }
});

Deno.test("createUrlGuard() judges IPv4-mapped, NAT64 and 6to4 addresses by the IPv4 address inside", async () => {
  const refused: readonly (readonly [string, string])[] = [
    ["http://[::ffff:10.0.0.1]/", "[::ffff:a00:1] (IPv4-mapped 10.0.0.1, private, RFC 1918"],
    ["http://[::ffff:a00:1]/", "[::ffff:a00:1] (IPv4-mapped 10.0.0.1, private, RFC 1918"],
    ["http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1] (IPv4-mapped 127.0.0.1, loopback"],
    [
      "http://[0:0:0:0:0:ffff:169.254.169.254]/",
      "[::ffff:a9fe:a9fe] (IPv4-mapped 169.254.169.254, link-local, cloud metadata service",
    ],
    ["http://[64:ff9b::10.0.0.1]/", "[64:ff9b::a00:1] (NAT64 of 10.0.0.1, private, RFC 1918"],
    ["http://[64:ff9b::7f00:1]/", "[64:ff9b::7f00:1] (NAT64 of 127.0.0.1, loopback"],
    ["http://[2002:c0a8:101::1]/", "[2002:c0a8:101::1] (6to4 of 192.168.1.1, private, RFC 1918"],
    [
      "http://[2002:a9fe:a9fe::]/",
      "[2002:a9fe:a9fe::] (6to4 of 169.254.169.254, link-local, cloud metadata service",
    ],
  ];
  for (const [url, expected] of refused) {
    assert.equal(
      await refusal(url),
      `Refused private-network address ${expected}; ${IF_PUBLIC})`,
      url,
    );
  }
  for (
    const url of [
      "http://[::ffff:8.8.8.8]/",
      "http://[64:ff9b::808:808]/",
      "http://[2002:808:808::1]/",
    ]
  ) {
    assert.equal(await refusal(url), null, url);
  }
});

Deno.test("createUrlGuard() refuses private names by spelling", async () => {
  const cases: readonly (readonly [string, string])[] = [
    ["http://localhost:8080/sitemap.xml", "localhost (loopback name, RFC 6761"],
    ["http://LOCALHOST./", "localhost. (loopback name, RFC 6761"],
    ["http://app.localhost/", "app.localhost (loopback name, RFC 6761"],
    ["http://printer.local/", "printer.local (mDNS name, RFC 6762"],
    [
      "http://metadata.google.internal/computeMetadata/v1/",
      "metadata.google.internal (cloud metadata name",
    ],
    ["http://metadata/computeMetadata/v1/", "metadata (cloud metadata name"],
    ["http://instance-data/latest/", "instance-data (cloud metadata name"],
    ["http://db.corp.internal/", "db.corp.internal (private-use name"],
    ["http://nas.home.arpa/", "nas.home.arpa (home network name, RFC 8375"],
    ["http://intranet/", "intranet (single-label name, resolved only on the local network"],
  ];
  for (const [url, expected] of cases) {
    assert.equal(
      await refusal(url),
      `Refused private-network name ${expected}; ${IF_PUBLIC})`,
      url,
    );
  }
});

Deno.test("createUrlGuard() reads the odd IPv4 spellings as URL normalises them", async () => {
  // WHATWG URL turns decimal, octal, hex and short forms into a dotted quad.
  const spellings: readonly (readonly [string, string])[] = [
    ["http://2130706433/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://0/", "0.0.0.0"],
    ["http://%31%30.0.0.1/", "10.0.0.1"],
    ["http://０ｘａ９.254.169.254/", "169.254.169.254"],
    ["http://169.254.169.254./", "169.254.169.254"],
  ];
  for (const [url, hostname] of spellings) {
    assert.equal(new URL(url).hostname, hostname, url);
    assert.match(
      (await refusal(url)) ?? "",
      new RegExp(`^Refused private-network address ${hostname} `),
      url,
    );
  }
});

Deno.test("isPrivateHost() normalises odd IPv4 spellings handed over as bare strings", () => {
  for (const host of ["2130706433", "0177.0.0.1", "0x7f.1", "127.1", "0xa9fea9fe", "10.1"]) {
    assert.equal(isPrivateHost(host), true, host);
  }
  assert.equal(isPrivateHost("134744072"), false); // 8.8.8.8
});

Deno.test("isPrivateHost() reads addresses as resolvers return them, without brackets", () => {
  for (
    const host of ["::1", "::ffff:10.0.0.1", "fe80::1%eth0", "0:0:0:0:0:ffff:0a00:0001", "10.0.0.5"]
  ) {
    assert.equal(isPrivateHost(host), true, host);
  }
  for (const host of ["2606:4700::1111", "2001:4860:4860:0:0:0:0:8888", "8.8.8.8"]) {
    assert.equal(isPrivateHost(host), false, host);
  }
});

Deno.test("isPrivateHost() does not take malformed addresses for private ones", () => {
  // Not addresses a connection could be made to (URL would reject them too).
  for (const host of ["::ffff:10.0.0.256", "fe80::1::2", "fe80:1:2:3:4:5:6:7:8", "[fe80::g]"]) {
    assert.equal(isPrivateHost(host), false, host);
  }
});

Deno.test("createUrlGuard() allows public addresses and names", async () => {
  for (
    const url of [
      "https://www.example.com/sitemap.xml",
      "http://8.8.8.8/",
      "http://1.1.1.1:8080/sitemap.xml",
      "http://172.15.255.255/",
      "http://172.32.0.0/",
      "http://100.63.255.255/",
      "http://100.128.0.0/",
      "http://169.253.255.255/",
      "http://223.255.255.255/",
      "http://[2606:4700:4700::1111]/",
      "http://[2a00:1450:4001:80b::200e]/",
      "https://localhost.example.com/",
      "https://local.example.com/",
      "https://internal.example.com/",
      "https://xn--bcher-kva.example/",
    ]
  ) {
    assert.equal(await refusal(url), null, url);
  }
});

Deno.test("createUrlGuard() treats documentation ranges as public", async () => {
  // Nothing routes them to a private host; tests use them as public stand-ins.
  for (
    const url of [
      "http://192.0.2.1/",
      "http://198.51.100.7/",
      "http://203.0.113.255/",
      "http://[2001:db8::1]/",
    ]
  ) {
    assert.equal(await refusal(url), null, url);
  }
});

Deno.test("createUrlGuard() refuses URLs that are not http(s), whatever the policy", async () => {
  for (const policy of [true, false, "if-homepage-is"] as const) {
    const guard = createUrlGuard(PUBLIC_HOME, policy);
    assert.equal(
      await guard(new URL("file:///etc/passwd")),
      "Refused non-http(s) URL: file:///etc/passwd",
    );
    assert.equal(
      await guard(new URL("ftp://example.com/sitemap.xml")),
      "Refused non-http(s) URL: ftp://example.com/sitemap.xml",
    );
    assert.equal(
      await guard(new URL("data:text/xml,<urlset/>")),
      "Refused non-http(s) URL: data:text/xml,<urlset/>",
    );
    assert.equal(await guard(new URL("HTTPS://www.example.com/a.xml")), null);
  }
});

Deno.test("createUrlGuard() follows the policy matrix for public and private homepages", async () => {
  const target = new URL("http://10.0.0.7/sitemap.xml");
  const publicTarget = new URL("https://cdn.example.net/sitemap.xml");
  const homes = {
    public: new URL("https://www.example.com/"),
    private: new URL("http://192.168.0.10:8080/"),
  };
  const expected: Record<string, string | null> = {
    "true public": null,
    "true private": null,
    "false public": "Refused private-network address 10.0.0.7 (private, RFC 1918; " +
      "allowPrivateNetworks is false)",
    "false private": "Refused private-network address 10.0.0.7 (private, RFC 1918; " +
      "allowPrivateNetworks is false)",
    "if-homepage-is public":
      `Refused private-network address 10.0.0.7 (private, RFC 1918; ${IF_PUBLIC})`,
    "if-homepage-is private": null,
  };
  for (const policy of [true, false, "if-homepage-is"] as const) {
    for (const [kind, home] of Object.entries(homes)) {
      const guard = createUrlGuard(home, policy);
      assert.equal(await guard(target), expected[`${policy} ${kind}`], `${policy} ${kind}`);
      assert.equal(await guard(publicTarget), null, `${policy} ${kind}, public target`);
    }
  }
});

Deno.test("createUrlGuard() sends no DNS query when the homepage is private by spelling", async () => {
  const { resolve, calls } = fakeResolver({});
  const guard = createUrlGuard(new URL("http://wiki.local/"), "if-homepage-is", { resolve });
  assert.equal(await guard(new URL("https://sitemaps.example.com/")), null);
  assert.equal(await guard(new URL("http://10.0.0.1/")), null);
  assert.deepEqual(calls, []);
});

Deno.test("createUrlGuard() counts a homepage on a private name or loopback as private", async () => {
  for (
    const home of [
      "http://localhost:3000/",
      "http://intranet/",
      "http://[::1]:8080/",
      "http://127.0.0.1:8000/",
    ]
  ) {
    const guard = createUrlGuard(new URL(home), "if-homepage-is");
    assert.equal(await guard(new URL("http://10.0.0.1/")), null, home);
  }
});

Deno.test("createUrlGuard() refuses a public-looking name that resolves to a private address", async () => {
  const { resolve, calls } = fakeResolver({
    "www.example.com": ["93.184.215.14"],
    "sitemaps.example.com": ["10.0.0.5"],
  });
  const guard = createUrlGuard(PUBLIC_HOME, "if-homepage-is", { resolve });
  assert.equal(
    await guard(new URL("https://sitemaps.example.com/sitemap.xml")),
    `Refused private-network address 10.0.0.5 of sitemaps.example.com (private, RFC 1918; ${IF_PUBLIC})`,
  );
  assert.deepEqual(calls, ["sitemaps.example.com", "www.example.com"]);
});

Deno.test("createUrlGuard() refuses a name when any one of its addresses is private", async () => {
  const { resolve } = fakeResolver({
    "www.example.com": ["93.184.215.14"],
    "mixed.example.com": ["93.184.215.15", "2606:4700::1", "::ffff:127.0.0.1"],
    "rebind.127.0.0.1.nip.io": ["127.0.0.1"],
  });
  const guard = createUrlGuard(PUBLIC_HOME, false, { resolve });
  assert.equal(
    await guard(new URL("https://mixed.example.com/")),
    "Refused private-network address ::ffff:127.0.0.1 of mixed.example.com " +
      "(IPv4-mapped 127.0.0.1, loopback; allowPrivateNetworks is false)",
  );
  assert.equal(
    await guard(new URL("https://rebind.127.0.0.1.nip.io/")),
    "Refused private-network address 127.0.0.1 of rebind.127.0.0.1.nip.io " +
      "(loopback; allowPrivateNetworks is false)",
  );
});

Deno.test("createUrlGuard() allows a name whose addresses are all public, resolving it once", async () => {
  const { resolve, calls } = fakeResolver({
    "cdn.example.net": ["151.101.1.1", "2a04:4e42::1"],
  });
  const guard = createUrlGuard(PUBLIC_HOME, "if-homepage-is", { resolve });
  assert.equal(await guard(new URL("https://cdn.example.net/a.xml")), null);
  assert.equal(await guard(new URL("https://cdn.example.net/b.xml")), null);
  assert.deepEqual(calls, ["cdn.example.net"]);
});

Deno.test("createUrlGuard() does not resolve IP literals, private names or anything under policy true", async () => {
  const { resolve, calls } = fakeResolver({});
  const strict = createUrlGuard(PUBLIC_HOME, false, { resolve });
  await strict(new URL("http://8.8.8.8/"));
  await strict(new URL("http://[2606:4700::1111]/"));
  await strict(new URL("http://printer.local/"));
  const open = createUrlGuard(PUBLIC_HOME, true, { resolve });
  assert.equal(await open(new URL("https://anything.example/")), null);
  assert.deepEqual(calls, []);
});

Deno.test("createUrlGuard() rejects with the resolver's error for a name it cannot resolve", async () => {
  const { resolve } = fakeResolver({});
  const guard = createUrlGuard(PUBLIC_HOME, "if-homepage-is", { resolve });
  await assert.rejects(guard(new URL("https://gone.example.org/sitemap.xml")), {
    code: "ENOTFOUND",
    message: "getaddrinfo ENOTFOUND gone.example.org",
  });
});

Deno.test("createUrlGuard() leaves proxied names to the proxy but still refuses reserved names and IP literals", async () => {
  const { resolve, calls } = fakeResolver({});
  const guard = createUrlGuard(PUBLIC_HOME, "if-homepage-is", { resolve, proxied: () => true });
  assert.equal(await guard(new URL("http://site.test/sitemap.xml")), null);
  assert.equal(
    await guard(new URL("http://localhost/sitemap.xml")),
    'Refused private-network name localhost (loopback name, RFC 6761; allowPrivateNetworks is "if-homepage-is" and the homepage is public)',
  );
  assert.equal(
    await guard(new URL("http://10.0.0.1/sitemap.xml")),
    'Refused private-network address 10.0.0.1 (private, RFC 1918; allowPrivateNetworks is "if-homepage-is" and the homepage is public)',
  );
  assert.deepEqual(calls, []);
});

Deno.test("createUrlGuard() resolves the homepage to tell whether it is private", async () => {
  const { resolve } = fakeResolver({
    "wiki.corp.example.com": ["10.20.0.4"],
    "sitemaps.corp.example.com": ["10.20.0.5"],
  });
  const guard = createUrlGuard(new URL("https://wiki.corp.example.com/"), "if-homepage-is", {
    resolve,
  });
  assert.equal(await guard(new URL("https://sitemaps.corp.example.com/sitemap.xml")), null);
  assert.equal(await guard(new URL("http://10.20.0.6/sitemap.xml")), null);

  const strict = createUrlGuard(new URL("https://wiki.corp.example.com/"), false, { resolve });
  assert.equal(
    await strict(new URL("https://sitemaps.corp.example.com/sitemap.xml")),
    "Refused private-network address 10.20.0.5 of sitemaps.corp.example.com " +
      "(private, RFC 1918; allowPrivateNetworks is false)",
  );
});

Deno.test("createUrlGuard() without a resolver judges names by spelling only", async () => {
  const guard = createUrlGuard(PUBLIC_HOME, false, { resolve: null });
  assert.equal(await guard(new URL("https://rebind.127.0.0.1.nip.io/")), null);
  assert.equal(
    await guard(new URL("http://localhost/")),
    "Refused private-network name localhost (loopback name, RFC 6761; allowPrivateNetworks is false)",
  );
});

Deno.test("createUrlGuard() resolves a name with a trailing dot without the dot", async () => {
  const { resolve, calls } = fakeResolver({ "sitemaps.example.com": ["192.168.5.5"] });
  const guard = createUrlGuard(PUBLIC_HOME, false, { resolve });
  assert.equal(
    await guard(new URL("https://sitemaps.example.com./")),
    "Refused private-network address 192.168.5.5 of sitemaps.example.com. " +
      "(private, RFC 1918; allowPrivateNetworks is false)",
  );
  assert.deepEqual(calls, ["sitemaps.example.com"]);
});

Deno.test("createUrlGuard() keeps the metadata service closed for a private homepage unless the policy is true", async () => {
  const intranet = createUrlGuard(new URL("http://10.1.2.3/"), "if-homepage-is");
  assert.equal(await intranet(new URL("http://10.9.9.9/sitemap.xml")), null);
  assert.equal(
    await intranet(new URL("http://169.254.169.254/latest/meta-data/")),
    "Refused cloud metadata address 169.254.169.254 (link-local, cloud metadata service; only allowPrivateNetworks: true allows it)",
  );
  assert.equal(
    await intranet(new URL("http://metadata.google.internal/computeMetadata/v1/")),
    "Refused cloud metadata address metadata.google.internal (cloud metadata name; only allowPrivateNetworks: true allows it)",
  );
  const open = createUrlGuard(new URL("http://10.1.2.3/"), true);
  assert.equal(await open(new URL("http://169.254.169.254/latest/meta-data/")), null);
});
