/**
 * The progress line in a real pseudo-terminal: the CLI runs inside a tmux
 * pane (what a person sees) under `script` (which keeps the raw bytes), and
 * again with stderr redirected to a file.
 *
 * @module
 */
import assert from "node:assert/strict";
import { generateIndex } from "../../fixtures/generate.ts";
import { FixtureSite } from "../../fixtures/site.ts";
import { screen } from "./_terminal.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const HAVE_TOOLS = ["/usr/bin/tmux", "/usr/bin/script"].every((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

/**
 * How long a pane may take to show its end marker: each run starts a Deno
 * process and its parser workers, which a loaded machine can make slow.
 */
const PANE_DEADLINE_MS = 120_000;

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

async function tmux(socket: string, ...args: string[]): Promise<string> {
  const output = await new Deno.Command("/usr/bin/tmux", {
    args: ["-L", socket, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`tmux ${args[0]} failed: ${new TextDecoder().decode(output.stderr)}`);
  }
  return new TextDecoder().decode(output.stdout);
}

Deno.test({
  name:
    "ls on a terminal shows a live progress line, erased before the tree and --stats; none when stderr is a file",
  ignore: !HAVE_TOOLS,
  async fn() {
    // Latency makes the crawl last several redraw intervals.
    const site = new FixtureSite()
      .file("/robots.txt", (o) => `Sitemap: ${o}/index.xml\n`)
      .file("/index.xml", (o) => generateIndex([`${o}/pages.xml`, `${o}/missing.xml`]))
      .file(
        "/pages.xml",
        (o) =>
          `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${o}/</loc></url><url><loc>${o}/a</loc></url></urlset>`,
      );
    site.latencyMs = 150;
    const server = await site.listen();
    const dir = await Deno.makeTempDir();
    const socket = `sitemap-tree-cli-test-${Deno.pid}`;
    try {
      const o = server.origin;
      const cli = `${quote(Deno.execPath())} run -A cli.ts ls ${
        quote(server.url("/"))
      } -k --no-feeds`;
      const raw = `${dir}/typescript`;
      const err = `${dir}/stderr`;
      const command = [
        `script -qfec ${quote(`${cli} -v --stats`)} ${quote(raw)}`,
        `echo "DONE $?"`,
        `${cli} 2>${quote(err)}`,
        `echo "DONE2 $?"`,
        `sleep 60`,
      ].join("; ");
      await tmux(socket, "new-session", "-d", "-x", "200", "-y", "50", "-c", ROOT, command);
      let pane = "";
      const deadline = Date.now() + PANE_DEADLINE_MS;
      while (Date.now() < deadline && !pane.includes("DONE2")) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        pane = await tmux(socket, "capture-pane", "-p");
      }

      const reason = `Unable to fetch sitemap from ${o}/missing.xml: 404 Not Found`;
      const logLines = [
        `fetched ${o}/index.xml (`,
        `fetched ${o}/pages.xml (`,
        `fetched ${o}/robots.txt (`,
        `invalid ${o}/missing.xml: ${reason}`,
      ];
      // tmux shows tabs as spaces to the next multiple of 8.
      const tree = [
        `${o}/`,
        `        ${o}/robots.txt`,
        `                ${o}/index.xml`,
        `                        ${o}/pages.xml`,
        `                                ${o}/`,
        `                                ${o}/a`,
        `                        ${o}/missing.xml  [invalid: ${reason}]`,
      ];
      const shown = pane.split("\n").map((line) => line.trimEnd()).filter((line) => line !== "");
      assert.deepEqual(
        shown.slice(0, 4).map((line) => line.replace(/\(\d+ bytes\)$/, "(")).sort(),
        logLines,
        pane,
      );
      // --stats follows the tree; times and sizes vary, so those lines are matched by shape.
      const stats = [
        "sitemaps      4 (robots 1, index 1, urlset 1, invalid 1)",
        "invalid       1",
        `  ${o}/missing.xml: ${reason}`,
        "requests      4",
        /^downloaded {4}\d+ B$/,
        /^decompressed {2}\d+ B$/,
        "pages         2 found, 2 kept",
        /^parse time {4}\d+\.\d m?s$/,
        /^elapsed {7}\d+\.\d m?s$/,
      ];
      const expected = [...tree, ...stats, "DONE 0", ...tree, "DONE2 0"];
      const rest = shown.slice(4);
      assert.equal(rest.length, expected.length, pane);
      expected.forEach((want, i) => {
        if (typeof want === "string") assert.equal(rest[i], want, pane);
        else assert.match(rest[i]!, want, pane);
      });

      // The raw bytes: the line was drawn in place (carriage return, erase
      // line), and what a terminal makes of them ends with no trace of it.
      const bytes = await Deno.readTextFile(raw);
      // Without script's own first ("Script started") and last ("Script done") lines.
      const body = bytes.slice(bytes.indexOf("\n") + 1, bytes.lastIndexOf("\nScript done") + 1);
      const drawn = body.split("\r\x1b[2K").slice(1).map((piece) => piece.split(/[\r\n]/)[0]!);
      assert.ok(drawn.length > 0, "the line was drawn");
      assert.match(drawn[0]!, /^sitemaps \d+ done \/ \d+ queued · pages \d+ · \d+ B · \d\.\d s/);
      // Deno itself clears its (module loading) progress bar with this on a terminal.
      const ours = body.replaceAll("\x1b[0G\x1b[2K\x1b[J", "").replaceAll("\r\n", "\n");
      const rendered = screen(ours).map((line) => line.trimEnd()).filter((line) => line !== "");
      assert.deepEqual(
        rendered.slice(0, 4).map((line) => line.replace(/\(\d+ bytes\)$/, "(")).sort(),
        logLines,
      );
      assert.deepEqual(
        rendered.slice(4, 4 + tree.length + 1),
        [...tree.map((line) => line.replace(/ {8}/g, "\t")), stats[0]],
      );

      assert.equal(await Deno.readTextFile(err), "", "no progress bytes when stderr is a file");
    } finally {
      await tmux(socket, "kill-server").catch(() => "");
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/**
 * Runs `command` in a fresh tmux pane and returns what the pane shows once
 * `done` appears; with `onScreen`, types its keys once its text shows, and
 * returns the pane of that moment too.
 */
async function inPane(
  socket: string,
  command: string,
  done: string,
  onScreen?: { readonly when: string; readonly keys: readonly string[] },
): Promise<{ pane: string; seen: string }> {
  await tmux(socket, "new-session", "-d", "-x", "200", "-y", "50", "-c", ROOT, command);
  let pane = "";
  let seen = "";
  let sentAt = -Infinity;
  const deadline = Date.now() + PANE_DEADLINE_MS;
  while (Date.now() < deadline && !pane.includes(done)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    pane = await tmux(socket, "capture-pane", "-p");
    if (onScreen === undefined || !pane.includes(onScreen.when)) continue;
    if (seen === "") seen = pane;
    // Deno discards what was typed before it reads the answer, so the keys go
    // 500 ms after the question shows, and again every 2 s while it is still
    // the last line (on a loaded machine, Deno may not have been reading yet).
    const lastLine = pane.trimEnd().split("\n").at(-1) ?? "";
    const waiting = sentAt === -Infinity || lastLine.includes(onScreen.when);
    if (waiting && Date.now() - sentAt >= 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (const key of onScreen.keys) await tmux(socket, "send-keys", key);
      sentAt = Date.now();
    }
  }
  return { pane, seen };
}

Deno.test({
  name:
    "ls draws no progress line with TERM=dumb or --no-progress, and none over Deno's permission prompt",
  ignore: !HAVE_TOOLS,
  async fn() {
    const site = new FixtureSite()
      .file("/robots.txt", (o) => `Sitemap: ${o}/index.xml\n`)
      .file("/index.xml", (o) => generateIndex([`${o}/pages.xml`]))
      .file(
        "/pages.xml",
        (o) =>
          `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${o}/</loc></url></urlset>`,
      );
    site.latencyMs = 150;
    const server = await site.listen();
    const dir = await Deno.makeTempDir();
    const socket = `sitemap-tree-cli-test-quiet-${Deno.pid}`;
    try {
      const deno = quote(Deno.execPath());
      const args = `cli.ts ls ${quote(server.url("/"))} -k --no-feeds`;
      // The progress line is drawn at once when allowed, so the raw bytes show whether it was.
      const runs = [
        ["drawn", `${deno} run -A ${args}`],
        ["dumb", `TERM=dumb ${deno} run -A ${args}`],
        ["flag", `${deno} run -A ${args} --no-progress`],
      ] as const;
      const command = runs.map(([name, cli]) =>
        `script -qfec ${quote(cli)} ${quote(`${dir}/${name}`)} >/dev/null; echo "${name} $?"`
      ).join("; ") + "; echo ALLDONE; sleep 60";
      const { pane } = await inPane(socket, command, "ALLDONE");
      assert.ok(pane.includes("drawn 0\ndumb 0\nflag 0\nALLDONE"), pane);
      const drawn = async (name: string): Promise<boolean> =>
        (await Deno.readTextFile(`${dir}/${name}`)).includes("\r\x1b[2Ksitemaps ");
      assert.deepEqual(
        [await drawn("drawn"), await drawn("dumb"), await drawn("flag")],
        [true, false, false],
      );
      await tmux(socket, "kill-server").catch(() =>
        ""
      );

      // Without --allow-net, Deno prompts on the first request: the line must not be drawn over it.
      // A socket of its own: a new server on the one just killed can fail to start.
      const prompt = await inPane(
        `${socket}-prompt`,
        `${deno} run --allow-read ${args}; echo "DONE $?"; sleep 60`,
        "DONE",
        { when: "Allow?", keys: ["n", "Enter"] },
      );
      assert.ok(prompt.seen.includes("Deno requests net access"), prompt.seen);
      assert.equal(prompt.seen.includes("sitemaps "), false, prompt.seen);
      assert.equal(prompt.pane.includes("sitemaps "), false, prompt.pane);
      assert.match(prompt.pane, /Denied net access[^]*\nsitemap-tree: .+\nDONE 1\n/, prompt.pane);
    } finally {
      await tmux(socket, "kill-server").catch(() => "");
      await tmux(`${socket}-prompt`, "kill-server").catch(() => "");
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
