/**
 * A throwaway redis-server for tests: on a free loopback port, persistence
 * off unless asked for, stopped afterwards. `scripts/setup.sh` installs it (Debian's
 * `redis-server`), and `npm test` runs that script first.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running Redis. */
export interface TestRedis {
  readonly port: number;
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  /** Stops it (SIGTERM) and starts it again on the same port, with or without its data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@linkcode startRedis}. */
export interface TestRedisOptions {
  /** The port; a free one when omitted. */
  readonly port?: number;
  /** Keep the data across a restart in an append-only file, as a fleet's Redis should. @default {false} */
  readonly appendOnly?: boolean;
}

/** A free loopback port, for a server that is not running yet. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let reply = "";
    socket.once("error", () => resolve(false));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) {
        socket.end();
        resolve(reply.startsWith("+PONG"));
      }
    });
    socket.once("connect", () => socket.write("PING\r\n"));
  });
}

async function spawnRedis(
  port: number,
  dir: string,
  appendOnly: boolean,
): Promise<Deno.ChildProcess> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("redis-server", {
      args: [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        appendOnly ? "yes" : "no",
        "--dir",
        dir,
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch (error) {
    throw new Error(
      `redis-server could not start (${
        error instanceof Error ? error.message : error
      }): run scripts/setup.sh, which installs Debian's redis-server`,
    );
  }
  for (let i = 0; i < 100; i++) {
    if (await ping(port)) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill("SIGKILL");
  await child.status;
  throw new Error(`redis-server did not answer on port ${port}`);
}

/**
 * Starts redis-server.
 *
 * @param options Its port, and whether it keeps its data across a restart.
 * @returns The server, once it answers PING.
 * @throws {Error} When redis-server is not installed (run scripts/setup.sh) or never answers.
 */
export async function startRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const port = options.port ?? await freePort();
  const appendOnly = options.appendOnly ?? false;
  const dir = mkdtempSync(join(tmpdir(), "test-redis-"));
  let child = await spawnRedis(port, dir, appendOnly);
  const stop = async (): Promise<void> => {
    child.kill("SIGTERM");
    await child.status;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await stop();
      child = await spawnRedis(port, dir, appendOnly);
    },
    stop: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
