/**
 * `@sitemap/tree/bullmq`: sites on a BullMQ queue in Redis, crawled by
 * workers on any number of machines. One site is one job; its id is the
 * normalised homepage, so a site enqueued twice is one job; its return value
 * is the site's summary; its pages go to a sink (by default one NDJSON file
 * per site under a directory). BullMQ's retries and stalled-job recovery
 * handle a worker that dies. The only dependency is `bullmq` (with its
 * `ioredis` peer); the main module never imports this one.
 *
 * @example Enqueue sites, then work through them
 * ```ts ignore
 * import { DEFAULT_QUEUE, enqueueSites, Queue, startSiteWorker } from "@sitemap/tree/bullmq";
 *
 * const connection = { host: "127.0.0.1", port: 6379 };
 * const queue = new Queue(DEFAULT_QUEUE, { connection });
 * await enqueueSites(queue, ["https://a.example/", "https://b.example/"]);
 * await queue.close();
 *
 * const { worker, close } = startSiteWorker({ connection, outDir: "results" });
 * worker.on("completed", (job) => console.log(job.returnvalue?.homepage, job.returnvalue?.status));
 * // ... later
 * await close();
 * ```
 *
 * @module
 */
export * from "./src/queue/site_queue.ts";
