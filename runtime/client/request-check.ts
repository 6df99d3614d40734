/**
 * Request-body checking with the generated validators: the fast validator
 * (it stops at its first problem) decides; only when it fails does the
 * all-errors build of the same component (`validate<Name>AllErrors`) run,
 * so a RequestValidationError lists every problem. Its `issues` are kept as
 * ajv reports them (a failed `oneOf` lists each branch's issue, then the
 * union's own), without the `if` ones, which only echo the issue before them.
 */
import type { ValidationIssue, Validator } from "../validation/issue.js";

/** A request body's validators: `[fast, allErrors]`. */
export type BodyCheck = readonly [fast: Validator<unknown>, allErrors: Validator<unknown>];

/** Falsy when the body is valid, else every problem. */
export const bodyIssues = ([fast, all]: BodyCheck, body: unknown): ValidationIssue[] | false =>
  !fast(body) && ((all(body) ? fast : all).errors ?? []).filter((i) => i.keyword != "if");

/**
 * The error message's lines for `issues`, shorter than the list itself:
 * - a union's own issue ("must match exactly one schema in oneOf") is left
 *   out when its branches said more;
 * - a property a branch forbids (a `false` schema: `prompt` beside
 *   `messages`) reads "must not be present", and is left out when another
 *   issue is about that same property or inside it: then the caller meant
 *   the branch that has the property, and the other issue says what is wrong.
 */
export function describeBodyIssues(issues: readonly ValidationIssue[]): string {
  const about = (i: ValidationIssue, path: string): boolean => i.instancePath == path || i.instancePath.startsWith(path + "/");
  const shown = issues.filter(
    (i) =>
      !((i.keyword == "oneOf" || i.keyword == "anyOf") && issues.length > 1) &&
      !(i.keyword == "false schema" && issues.some((j) => j != i && j.keyword != "false schema" && about(j, i.instancePath))),
  );
  return shown.map((i) => `\n  ${i.instancePath || "(body)"}: ${i.keyword == "false schema" ? "must not be present" : i.message}`).join("");
}
