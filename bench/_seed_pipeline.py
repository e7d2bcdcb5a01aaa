"""The seed's pipeline, as its guide builds it, for the end-to-end benchmark.

robots.txt -> its Sitemap: lines -> each sitemap fetched with aiohttp, four at
a time, and parsed with ElementTree in a four-process pool created once at
start-up; gzip inflated with a size-limited zlib object; a lastmod cut-off
applied inside the workers. Started by bench/e2e.ts as a fresh process; prints
one JSON line shaped like bench/_e2e_run.ts's figures.

    /usr/bin/python3 bench/_seed_pipeline.py '{"origin": "http://127.0.0.1:PORT/", "since": null}'

Needs Debian's python3-aiohttp (bench/setup_seed.sh installs it).
"""

import asyncio
import json
import os
import resource
import sys
import time
import xml.etree.ElementTree as ET
import zlib
from concurrent.futures import ProcessPoolExecutor

import aiohttp

NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
LIMIT = 50 * 1024 * 1024


def inflate(data: bytes) -> bytes:
    d = zlib.decompressobj(wbits=31)
    out = d.decompress(data, LIMIT + 1)
    if len(out) > LIMIT or d.unconsumed_tail:
        raise ValueError(f"sitemap expands past {LIMIT} bytes")
    return out


def parse(body: bytes, since):
    raw = inflate(body) if body[:2] == b"\x1f\x8b" else body
    root = ET.fromstring(raw)
    kind = root.tag.removeprefix(NS)
    tag = "sitemap" if kind == "sitemapindex" else "url"
    entries = []
    for el in root.iter(NS + tag):
        lastmod = el.findtext(NS + "lastmod")
        if since is None or kind == "sitemapindex" or lastmod is None or lastmod >= since:
            entries.append((el.findtext(NS + "loc"), lastmod))
    return kind, entries


def status_mib(field: str, pid: str = "self") -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def crawl(origin: str, since, executor) -> int:
    sem = asyncio.Semaphore(4)
    seen: set[str] = set()
    urls: list = []
    loop = asyncio.get_running_loop()
    async with aiohttp.ClientSession() as session:

        async def visit(url: str, depth: int) -> None:
            if url in seen or depth > 3:
                return
            seen.add(url)
            async with sem:
                async with session.get(url) as resp:
                    resp.raise_for_status()
                    body = await resp.read()
            kind, entries = await loop.run_in_executor(executor, parse, body, since)
            if kind == "sitemapindex":
                async with asyncio.TaskGroup() as tg:
                    for loc, _ in entries:
                        tg.create_task(visit(loc, depth + 1))
            else:
                urls.extend(entries)

        async with session.get(origin.rstrip("/") + "/robots.txt") as resp:
            robots = await resp.text()
        roots = [line.split(":", 1)[1].strip() for line in robots.splitlines()
                 if line.lower().startswith("sitemap:")]
        for root in roots:
            await visit(root, 0)
    return len(urls)


async def main(spec) -> dict:
    executor = ProcessPoolExecutor(4)
    # Start the pool's processes before the call, as the guide does at start-up.
    await asyncio.gather(*[asyncio.get_running_loop().run_in_executor(executor, abs, 1)
                           for _ in range(4)])
    baseline = status_mib("VmRSS")
    lag = {"max": 0.0}
    stop = asyncio.Event()

    async def meter():
        last = time.perf_counter()
        while not stop.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            lag["max"] = max(lag["max"], (now - last) * 1000 - 1)
            last = now

    meter_task = asyncio.create_task(meter())
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    children = [p.pid for p in executor._processes.values()]
    child_cpu0 = sum(process_cpu_ms(pid) for pid in children)
    t0 = time.perf_counter()
    count = await crawl(spec["origin"], spec.get("since"), executor)
    total_ms = (time.perf_counter() - t0) * 1000
    stop.set()
    await meter_task
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    child_cpu = sum(process_cpu_ms(pid) for pid in children) - child_cpu0
    pool_peak = sum(status_mib("VmHWM", str(pid)) for pid in children)
    peak = status_mib("VmHWM")
    executor.shutdown()
    main_cpu = ((cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)) * 1000
    return {
        "case": "seed",
        "runtime": f"Python {sys.version.split()[0]} + aiohttp + 4-process pool",
        "urls": count,
        "treeMs": round(total_ms, 1),
        "iterMs": 0,
        "totalMs": round(total_ms, 1),
        "cpuMs": round(main_cpu + child_cpu, 1),
        "lagMs": round(lag["max"], 1),
        "lagAtMs": 0,
        "baselineMiB": round(baseline, 1),
        "peakMiB": round(peak, 1),
        "peakTreeMiB": round(peak, 1),
        "poolPeakMiB": round(pool_peak, 1),
        "sitemaps": 0,
        "invalid": [],
    }


def process_cpu_ms(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    fields = stat[stat.rindex(")") + 2:].split(" ")
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(json.loads(sys.argv[1])))))
