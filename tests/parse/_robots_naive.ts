/**
 * A reference robots.txt matcher written the obvious way, to hold the
 * compiled one to: every rule of the group is tried as a regular expression
 * (`*` is `.*`, a final `$` anchors), the longest pattern wins, `Allow` on a
 * tie. Used by the differential test and as the bench's baseline.
 *
 * @module
 */
import { normalizeRobotsPath } from "../../src/parse/_robots_rules.ts";

/** One rule, compiled to a regular expression. */
interface NaiveRule {
  readonly allow: boolean;
  readonly priority: number;
  readonly regex: RegExp;
}

function compileRule(allow: boolean, pattern: string): NaiveRule {
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body.split("*").map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return { allow, priority: pattern.length, regex: new RegExp(`^${source}${anchored ? "$" : ""}`) };
}

/** The rules of one group, each a regular expression. */
export class NaiveRules {
  readonly #rules: NaiveRule[] = [];

  /**
   * Adds a rule as written, with Google's `index.htm` extra rule for an Allow.
   *
   * @param allow True for Allow.
   * @param written The pattern as written.
   */
  add(allow: boolean, written: string): void {
    const pattern = normalizeRobotsPath(written);
    if (pattern === "") return;
    this.#rules.push(compileRule(allow, pattern));
    const slash = pattern.lastIndexOf("/");
    if (allow && slash >= 0 && pattern.startsWith("/index.htm", slash)) {
      this.#rules.push(compileRule(true, pattern.slice(0, slash + 1) + "$"));
    }
  }

  /**
   * Whether `path` is allowed.
   *
   * @param path A normalised path.
   * @returns True when no rule disallows it more specifically than one allows it.
   */
  isAllowed(path: string): boolean {
    let allow = 0;
    let disallow = 0;
    for (const rule of this.#rules) {
      if (!rule.regex.test(path)) continue;
      if (rule.allow) allow = Math.max(allow, rule.priority);
      else disallow = Math.max(disallow, rule.priority);
    }
    return disallow <= allow;
  }
}
