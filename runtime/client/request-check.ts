/**
 * Request-body checking with the generated validators: the fast validator
 * (stops at its first problem) decides; only when it fails does the
 * all-errors build of the same component (`validate<Name>AllErrors`) run,
 * so a RequestValidationError lists every problem.
 */
import type { ValidationIssue, Validator } from "../../generated/validators/runtime.js";

/** A request body's validators: `[fast, allErrors]`. */
export type BodyCheck = readonly [fast: Validator<unknown>, allErrors: Validator<unknown>];

/**
 * `null` when the body is valid, else every problem. ajv reports a failed
 * `oneOf`/`anyOf` as the errors of each branch followed by the union's own
 * issue, and a bad property name as the inner error followed by "property
 * name must be valid": each such group becomes one issue (the last one, its
 * message naming the alternatives), so one mistake reads as one. A member of
 * a group is an issue at or under the group's instance path whose schema
 * path is under the group's keyword. `if` issues ("must match then schema")
 * only echo the issue before them and are dropped.
 */
export function bodyIssues([fast, all]: BodyCheck, body: unknown): ValidationIssue[] | null {
  if (fast(body)) return null;
  const out: ValidationIssue[] = [];
  for (const issue of (all(body) ? null : all.errors) ?? fast.errors ?? []) {
    const { instancePath: at, schemaPath, keyword, params } = issue;
    const inner: string[] = [];
    let last: ValidationIssue | undefined;
    while (/^(oneOf|anyOf|propertyNames)$/.test(keyword) && (last = out.at(-1)) && (last.instancePath + "/").startsWith(at + "/") && last.schemaPath.startsWith(schemaPath + "/")) {
      inner.unshift(`${last.instancePath.slice(at.length)} ${last.message}`.trim());
      out.pop();
    }
    const { passingSchemas: passing, propertyName: name } = params;
    if (keyword != "if") {
      out.push({
        ...issue,
        message: issue.message + (name === undefined ? "" : ` (${JSON.stringify(name)})`) + (inner[0] ? `: ${inner.join("; or ")}` : "") + (Array.isArray(passing) ? ` (it matches branches ${passing})` : ""),
      });
    }
  }
  return out;
}
