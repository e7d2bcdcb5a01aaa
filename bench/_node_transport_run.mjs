// One cold run of bench/node_transport.ts: a fresh process fetches robots.txt,
// the index it names and the index's children, 4 at a time, each body read
// whole through its reader, with the transport named; prints one JSON line.
//
//     node bench/_node_transport_run.mjs '{"origin":"http://127.0.0.1:PORT","transport":"node:http"}'
//
// Transports: "fetch" (the runtime's own `fetch`: undici on Node), "node:http"
// (the library's Node transport, src/runtime/_node_fetch.ts as tsc emits it
// into dist/bench/).
import process from "node:process";

// Imported when run: dist/ exists only once built (bench/node_transport.ts builds it), so a static
// import would fail `deno check .` on a clean checkout.
const { concatBytes } = await import("../dist/bench/src/_concat.js");

const { origin, transport } = JSON.parse(process.argv[2]);
const fetchOf = transport === "node:http"
  ? (await import("../dist/bench/src/runtime/_node_fetch.js")).createNodeFetch()
  : globalThis.fetch;
const headers = new Headers({ "user-agent": "bench", "accept-encoding": "identity" });

async function read(url) {
  const response = await fetchOf(url, {
    headers,
    redirect: "manual",
    signal: new AbortController().signal,
  });
  const reader = response.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  return concatBytes(chunks, size);
}

const cpuStart = process.cpuUsage();
const start = performance.now();
const robots = new TextDecoder().decode(await read(new URL("/robots.txt", origin)));
const index = new TextDecoder().decode(await read(/Sitemap:\s*(\S+)/i.exec(robots)[1]));
const children = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
let next = 0;
let bytes = 0;
await Promise.all(Array.from({ length: 4 }, async () => {
  while (next < children.length) {
    const got = await read(children[next++]);
    bytes += got.byteLength;
  }
}));
const wallMs = performance.now() - start;
const cpu = process.cpuUsage(cpuStart);
console.log(JSON.stringify({ transport, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, bytes }));
