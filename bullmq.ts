/**
 * `@sitemap/tree/bullmq`: sites on a BullMQ queue in Redis, crawled by
 * workers on any number of machines. One site is one job; its id is the
 * normalised homepage, so a site enqueued twice is one job; its return value
 * is the site's summary; its pages go to a sink (by default one NDJSON file
 * per site under a directory). BullMQ's retries and stalled-job recovery
 * handle a worker that dies. The only dependency is `bullmq` (with its
 * `ioredis` peer); the main module never imports this one.
 *
 * In production the queue is a BullMQ `Queue`
 * (`new Queue(DEFAULT_QUEUE, { connection })`, from `bullmq`) and each
 * machine runs `startSiteWorker({ connection, outDir })`; docs/batch.md
 * ("Many sites") walks through a fleet.
 *
 * @example One job per site, whatever the spelling
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { enqueueSites, type SiteQueue, siteJobId } from "@sitemap/tree/bullmq";
 *
 * // A stand-in for a BullMQ `Queue` (`new Queue(DEFAULT_QUEUE, { connection })`): jobs in a Map.
 * const jobs = new Map<string, string>();
 * const queue: SiteQueue = {
 *   getJob: (id) => Promise.resolve(jobs.get(id)),
 *   addBulk: (batch) => {
 *     for (const { data, opts } of batch) {
 *       if (!jobs.has(opts.jobId)) jobs.set(opts.jobId, data.homepage);
 *     }
 *     return Promise.resolve();
 *   },
 * };
 *
 * const sites = ["https://a.example/", "HTTPS://A.example/blog", "https://b.example/"];
 * deepStrictEqual(await enqueueSites(queue, sites), { offered: 3, added: 2 });
 * deepStrictEqual([...jobs], [
 *   [siteJobId("https://a.example/"), "https://a.example/"],
 *   [siteJobId("https://b.example/"), "https://b.example/"],
 * ]);
 * ```
 *
 * @module
 */
export * from "./src/queue/site_queue.ts";
