/**
 * The command line's one argument parser, for every command, on the
 * runtime's own `node:util` `parseArgs` (Deno, Bun and Node all have it) in
 * strict mode, driven by the command's spec (`_spec.ts`): `multiple` only
 * for the flags that repeat (`--header`, `--extra-path`, `-v`), the spec's
 * defaults as `parseArgs` defaults. What strict mode refuses is reported as
 * one line naming the flag as written, from its `ERR_PARSE_ARGS_*` code (the
 * runtimes word their own messages differently). A flag's value is checked
 * once, by the typed getters of {@linkcode ParsedFlags}, so the same mistake
 * gets the same message everywhere.
 *
 * `allowNegative` is not used: the negative switches are flags of their own
 * (`-r` is `--no-robots`), and it would also accept `--robots`, `--no-stats`
 * and every other `--no-X` that the help does not list.
 *
 * @module
 */
import { parseArgs as parseTokens } from "node:util";
import { MAX_TIMER_MS } from "../_option_checks.ts";
import { COMMANDS, type CommandSpec, type FlagGroup } from "./_spec.ts";

/** A command line that cannot be run; the message is one line naming the bad flag or value. */
export class UsageError extends Error {
  /** The command whose `--help` explains it, or null for the program's. */
  readonly command: string | null;
  /**
   * @param message One line, naming the offending argument.
   * @param command The command it belongs to.
   */
  constructor(message: string, command: string | null = null) {
    super(message);
    this.name = "UsageError";
    this.command = command;
  }
}

/** A parsed command line. */
export type ParsedArgs =
  | { readonly kind: "help"; readonly command: CommandSpec | null }
  | { readonly kind: "version" }
  | {
    readonly kind: "run";
    readonly command: CommandSpec;
    readonly operands: readonly string[];
    readonly flags: ParsedFlags;
  };

/** A command line to run: its command, operands and flags. */
export type RunArgs = Extract<ParsedArgs, { readonly kind: "run" }>;

/**
 * Parses the command line (without the runtime and script name): the
 * command comes first, then its flags and operands in any order.
 *
 * @param args E.g. `["ls", "https://example.com/", "-f", "pages"]`.
 * @returns What to do.
 * @throws {UsageError} For an unknown command or flag, a missing value, or the wrong number of operands.
 */
export function parseArgs(args: readonly string[]): ParsedArgs {
  const first = args[0];
  if (first === undefined) {
    throw new UsageError(`Missing command (one of ${[...COMMANDS.keys()].join(", ")})`);
  }
  if (first.startsWith("-") && first !== "-") {
    // `--help` wins over whatever else was typed, as it does after a command.
    if (args.includes("--help") || args.includes("-h")) return { kind: "help", command: null };
    if (args.includes("--version")) return { kind: "version" };
    throw new UsageError(
      `Missing command before ${first} (one of ${[...COMMANDS.keys()].join(", ")})`,
    );
  }
  const command = COMMANDS.get(first);
  if (command === undefined) {
    throw new UsageError(
      `Unknown command ${JSON.stringify(first)} (one of ${[...COMMANDS.keys()].join(", ")})`,
    );
  }
  const flags = parseFlags(args.slice(1), command.flags, command.name);
  // `ls --help` works whatever else was typed.
  if (flags.has("help")) return { kind: "help", command };
  if (flags.has("version")) return { kind: "version" };
  const operands = flags.operands;
  if (operands.length < command.minOperands) {
    throw new UsageError(`Missing ${command.operands}`, command.name);
  }
  if (operands.length > 0 && command.maxOperands === 0) {
    throw new UsageError(
      `${command.name} takes no operands, got ${operands.length}: ${operands.join(" ")}`,
      command.name,
    );
  }
  if (operands.length > command.maxOperands) {
    throw new UsageError(
      `Expected ${
        command.maxOperands === 1 ? "one" : command.maxOperands
      } ${command.operands} operand, got ${operands.length}: ${operands.join(" ")}`,
      command.name,
    );
  }
  return { kind: "run", command, operands, flags };
}

/** How `parseArgs` reads one flag. */
interface OptionConfig {
  readonly type: "string" | "boolean";
  readonly short?: string;
  readonly multiple?: boolean;
  readonly default?: string;
}

/** One flag as the user wrote it (`-f`, `--format`), where, and its value (none for a switch). */
interface Occurrence {
  readonly name: string;
  readonly written: string;
  readonly value: string | undefined;
  /** Whether the value was in the same argument (`--format=csv`, `-fcsv`). */
  readonly inline: boolean;
  /** The argument it was read from. */
  readonly index: number;
}

/** What `parseArgs` makes of a command line. */
interface Parsed {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
  readonly tokens: readonly Occurrence[];
}

/** The `parseArgs` options of a command's flags: `multiple` only where a flag repeats. */
function optionsOf(groups: readonly FlagGroup[]): Record<string, OptionConfig> {
  const options: Record<string, OptionConfig> = {};
  for (const group of groups) {
    for (const flag of group.flags) {
      options[flag.name] = {
        type: flag.value === undefined ? "boolean" : "string",
        ...(flag.short === undefined ? {} : { short: flag.short }),
        ...(flag.multiple === true ? { multiple: true } : {}),
        ...(flag.default === undefined ? {} : { default: flag.default }),
      };
    }
  }
  return options;
}

/** `parseArgs` on the command's flags, strict or not, with its tokens as occurrences. */
function tokenize(
  args: readonly string[],
  options: Record<string, OptionConfig>,
  strict: boolean,
): Parsed {
  const { values, positionals, tokens } = parseTokens({
    args: [...args],
    options,
    strict,
    allowPositionals: true,
    tokens: true,
  });
  const occurrences: Occurrence[] = [];
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    occurrences.push({
      name: token.name,
      written: token.rawName,
      value: token.value,
      inline: token.inlineValue === true,
      index: token.index,
    });
  }
  return { values, positionals, tokens: occurrences };
}

function parseFlags(
  args: readonly string[],
  groups: readonly FlagGroup[],
  command: string | null,
): ParsedFlags {
  const options = optionsOf(groups);
  let line = [...args];
  for (;;) {
    try {
      const { values, positionals, tokens } = tokenize(line, options, true);
      return new ParsedFlags(values, tokens, positionals, command);
    } catch (error) {
      const fault = faultOf(error, line, groups);
      if (fault === null) throw error;
      if (typeof fault === "string") throw new UsageError(fault, command);
      line = fault;
    }
  }
}

/**
 * What a strict `parseArgs` refused, told by its error code and found in the
 * tokens of a lenient pass: one line naming the flag as written (the
 * runtimes word their messages differently), or, for a value that starts
 * with one dash (`--retries -1`), the command line with that value attached
 * (`--retries=-1`), so that its getter says what is wrong with it; a value
 * that starts with two (`--format --stats`) is more likely a forgotten one.
 * Null for an error that is not `parseArgs` refusing the line.
 */
function faultOf(
  error: unknown,
  line: readonly string[],
  groups: readonly FlagGroup[],
): string | string[] | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION" && code !== "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    return null;
  }
  const specs = new Map(groups.flatMap((g) => g.flags.map((f) => [f.name, f] as const)));
  for (const token of tokenize(line, optionsOf(groups), false).tokens) {
    const spec = specs.get(token.name);
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      if (spec === undefined) return `Unknown option ${JSON.stringify(token.written)}`;
      continue;
    }
    if (spec === undefined) continue;
    if (spec.value === undefined) {
      if (token.value !== undefined) return `Option ${token.written} takes no value`;
      continue;
    }
    const value = token.value;
    if (value === undefined || (!token.inline && value.startsWith("--"))) {
      return `Option ${token.written} needs a value (${spec.value})`;
    }
    if (!token.inline && value.length > 1 && value.startsWith("-")) {
      const attached = [...line];
      const joint = token.written.startsWith("--") ? "=" : "";
      attached.splice(token.index, 2, `${line[token.index]}${joint}${value}`);
      return attached;
    }
  }
  return null;
}

/**
 * The flags of one command line, read through typed getters that check the
 * value and throw a {@linkcode UsageError} naming the flag. A flag given
 * twice keeps its last value, unless it is `multiple`; a flag with a
 * `default` in its spec always has a value.
 */
export class ParsedFlags {
  readonly #values: Parsed["values"];
  readonly #tokens: readonly Occurrence[];
  readonly #command: string | null;
  /** The arguments that are not flags, in order. */
  readonly operands: readonly string[];

  constructor(
    values: Parsed["values"],
    tokens: readonly Occurrence[],
    operands: readonly string[],
    command: string | null,
  ) {
    this.#values = values;
    this.#tokens = tokens;
    this.operands = operands;
    this.#command = command;
  }

  /** Whether the flag was given (or has a default). */
  has(name: string): boolean {
    return this.#values[name] !== undefined;
  }

  /** How often it was given (`-vv` is 2). */
  count(name: string): number {
    const value = this.#values[name];
    return Array.isArray(value) ? value.length : value === undefined ? 0 : 1;
  }

  /** The flag as the user last wrote it, for messages (`--name` when not given). */
  written(name: string): string {
    return this.#last(name)?.written ?? `--${name}`;
  }

  /** A usage error for this command. */
  error(message: string): UsageError {
    return new UsageError(message, this.#command);
  }

  /** The last value, or null when not given. */
  string(name: string): string | null {
    return this.#last(name)?.value ?? null;
  }

  /** A value that must not be empty (a file or directory name). */
  nonEmpty(name: string, what: string): string | null {
    const o = this.#last(name);
    if (o === undefined) return null;
    if (o.value === "") throw this.error(`Option ${o.written} needs ${what}`);
    return o.value;
  }

  /** Every value, in order. */
  strings(name: string): string[] {
    const value = this.#values[name];
    const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
    return list.filter((v) => typeof v === "string");
  }

  /** One of `choices`. */
  choice<T extends string>(name: string, choices: readonly T[]): T | null {
    const o = this.#last(name);
    if (o === undefined) return null;
    const found = choices.find((c) => c === o.value);
    if (found === undefined) {
      throw this.error(
        `Option ${o.written} must be one of ${choices.join(", ")}, got ${JSON.stringify(o.value)}`,
      );
    }
    return found;
  }

  /** A whole number >= `min`, digits only ("1e3", "0x10" and "4.0" are more likely typos). */
  integer(name: string, min: number): number | null {
    const o = this.#last(name);
    if (o === undefined) return null;
    const n = /^[0-9]+$/.test(o.value) ? Number(o.value) : NaN;
    if (!Number.isSafeInteger(n) || n < min) {
      throw this.error(
        `Option ${o.written} must be an integer >= ${min}, got ${JSON.stringify(o.value)}`,
      );
    }
    return n;
  }

  /** A byte count >= 1, with an optional binary K, M or G suffix (`50M` is 52428800). */
  bytes(name: string): number | null {
    const o = this.#last(name);
    if (o === undefined) return null;
    const match = /^([0-9]+)([KMG]?)$/i.exec(o.value);
    const scale = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[
      (match?.[2] ?? "").toUpperCase() as "" | "K" | "M" | "G"
    ];
    const n = match === null ? NaN : Number(match[1]) * scale;
    if (!Number.isSafeInteger(n) || n < 1) {
      throw this.error(
        `Option ${o.written} must be a byte count such as 1048576 or 50M, got ${
          JSON.stringify(o.value)
        }`,
      );
    }
    return n;
  }

  /**
   * A duration in milliseconds, written with its unit (`1500ms`, `90s`, `5m`,
   * `1.5h`), or null for `none`; `undefined` when not given.
   */
  duration(name: string): number | null | undefined {
    const o = this.#last(name);
    if (o === undefined) return undefined;
    if (o.value === "none") return null;
    const match = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)$/.exec(o.value);
    const scale = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[
      (match?.[2] ?? "ms") as "ms" | "s" | "m" | "h"
    ];
    const ms = match === null ? NaN : Math.round(Number(match[1]) * scale);
    if (!(ms >= 1 && ms <= MAX_TIMER_MS)) {
      throw this.error(
        `Option ${o.written} must be a duration such as 90s, 5m or 1h (at most 596h), or none, got ${
          JSON.stringify(o.value)
        }`,
      );
    }
    return ms;
  }

  /** An ISO 8601 date; a time without a zone is UTC, as sitemap lastmods are here. */
  date(name: string): Date | null {
    const o = this.#last(name);
    if (o === undefined) return null;
    // Date.parse alone accepts "1" or "March 7"; a date filter wants ISO 8601.
    const iso =
      /^\d{4}(-\d{2}(-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/i;
    const match = iso.exec(o.value);
    const text = match !== null && match[3] !== undefined && match[6] === undefined
      ? `${o.value}Z`
      : o.value;
    const ms = match === null ? NaN : Date.parse(text.replace(" ", "T"));
    if (Number.isNaN(ms)) {
      throw this.error(
        `Option ${o.written} must be an ISO 8601 date such as 2024-05-01 or 2024-05-01T12:00:00Z, got ${
          JSON.stringify(o.value)
        }`,
      );
    }
    return new Date(ms);
  }

  /** `--header` values folded into one record (repeats joined with ", ", as HTTP does). */
  headers(name: string): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const { written, value = "" } of this.#tokens.filter((t) => t.name === name)) {
      const colon = value.indexOf(":");
      const key = colon === -1 ? "" : value.slice(0, colon).trim();
      if (!HEADER_NAME.test(key)) {
        throw this.error(
          `Option ${written} must look like "Name: value", got ${JSON.stringify(value)}`,
        );
      }
      const text = value.slice(colon + 1).trim();
      if (/[\r\n\0]/.test(text)) {
        throw this.error(`Option ${written} value must be one line, got ${JSON.stringify(value)}`);
      }
      // fetch() throws on a header value that is not a ByteString, mid-crawl.
      if (/[\u0100-\uffff]/.test(text)) {
        throw this.error(
          `Option ${written} value must be Latin-1 (HTTP header values are bytes; percent-encode others), got ${
            JSON.stringify(value)
          }`,
        );
      }
      const existing = Object.keys(headers).find((k) => k.toLowerCase() === key.toLowerCase());
      if (existing === undefined) headers[key] = text;
      else headers[existing] = `${headers[existing]}, ${text}`;
    }
    return headers;
  }

  /** The flag's value (the last one given, or its default) and how it was last written. */
  #last(name: string): { readonly written: string; readonly value: string } | undefined {
    const value = this.#values[name];
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last === undefined) return undefined;
    const token = this.#tokens.findLast((t) => t.name === name);
    return { written: token?.written ?? `--${name}`, value: typeof last === "string" ? last : "" };
  }
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
