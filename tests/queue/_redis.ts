/**
 * A throwaway redis-server for tests: on a free loopback port, persistence
 * off, stopped afterwards. `scripts/setup.sh` installs it (Debian's
 * `redis-server`), and `npm test` runs that script first.
 */
import { connect, createServer } from "node:net";

/** A running Redis. */
export interface TestRedis {
  readonly port: number;
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
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

/**
 * Starts redis-server.
 *
 * @returns The server, once it answers PING.
 * @throws {Error} When redis-server is not installed (run scripts/setup.sh) or never answers.
 */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("redis-server", {
      args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
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
    if (await ping(port)) {
      return {
        port,
        url: `redis://127.0.0.1:${port}`,
        stop: async () => {
          child.kill("SIGTERM");
          await child.status;
        },
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill("SIGKILL");
  await child.status;
  throw new Error(`redis-server did not answer on port ${port}`);
}
