/**
 * A lock file that keeps two `watch` runs of one site from working on its
 * state at once: created with `O_EXCL` (so only one process can), holding
 * the process id, host and start time. A lock whose process is gone (same
 * host, no such pid) is stale and taken over; a lock from another host
 * cannot be checked, so it is refused with a line that says how to clear it.
 *
 * @module
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import process from "node:process";

/** A held lock. */
export interface HeldLock {
  /** Removes the lock file (once; later calls do nothing). */
  release(): void;
}

/** What a lock file holds. */
interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

/** How old an unreadable lock file (its writer died between create and write) must be to count as stale, ms. */
const UNREADABLE_STALE_MS = 60_000;

/**
 * Takes the lock at `path`.
 *
 * @param path The lock file.
 * @returns The lock, or the one line that says who holds it.
 * @throws When the file cannot be created for another reason (no such directory, no permission).
 */
export function takeLock(path: string): HeldLock | string {
  for (let attempt = 0;; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, "wx");
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EEXIST") throw error;
      const owner = readOwner(path);
      if (attempt === 0 && isStale(path, owner)) {
        try {
          unlinkSync(path);
        } catch (error) {
          if ((error as { code?: unknown }).code !== "ENOENT") throw error;
        }
        continue;
      }
      return owner === null
        ? `${path} is held by a process that has not said which (remove the file if no run is going on)`
        : `${path} is held by process ${owner.pid} on ${
          owner.host || "this host"
        } since ${owner.since}: ` +
          `another run for this site is going on (if none is, remove the file)`;
    }
    try {
      const owner: LockOwner = {
        pid: process.pid,
        host: hostName(),
        since: new Date().toISOString(),
      };
      writeSync(fd, JSON.stringify(owner) + "\n");
    } finally {
      closeSync(fd);
    }
    let held = true;
    return {
      release() {
        if (!held) return;
        held = false;
        try {
          unlinkSync(path);
        } catch {
          // Gone already: nothing to release.
        }
      },
    };
  }
}

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, "utf8")) as Partial<LockOwner>;
    if (typeof owner.pid !== "number" || typeof owner.host !== "string") return null;
    return { pid: owner.pid, host: owner.host, since: String(owner.since) };
  } catch {
    return null;
  }
}

/**
 * Whether the lock's process is gone: on this host, with no process of its
 * id; an unreadable lock once it is older than a minute. A process the
 * runtime does not let us ask about (Deno without `--allow-run`) counts as
 * alive.
 */
function isStale(path: string, owner: LockOwner | null): boolean {
  if (owner === null) {
    try {
      return Date.now() - statSync(path).mtimeMs > UNREADABLE_STALE_MS;
    } catch {
      return true;
    }
  }
  if (owner.host !== hostName()) return false;
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: unknown }).code === "ESRCH";
  }
}

/** This host's name, or "" where the runtime does not tell (Deno without `--allow-sys`). */
function hostName(): string {
  try {
    return hostname();
  } catch {
    return "";
  }
}
