/**
 * Request-body checking with the generated validators.
 *
 * The generated validators stop at their first problem (that is what makes
 * them fast), yet a RequestValidationError should list every problem. So,
 * only when the whole-body validator fails, the body is checked again piece
 * by piece with the component validators the generator found for it:
 * - `parts`: `allOf` branches that apply to the whole body (e.g. `RunInput`,
 *   "prompt xor messages");
 * - `fields`: top-level properties whose schema is a component (e.g.
 *   `modelId`, `outputSchema`), or an array of components, checked item by
 *   item (e.g. every `tools[i]`).
 * The whole-body issue is kept when no piece covers its location.
 * Result: at least one issue per faulty field, array item and part; two
 * problems inside the same tool ref still show as one.
 */
import type { ValidationIssue, Validator } from "../../generated/validators/runtime.js";

/** `[field, validator, each]`: `each` checks every item of an array field. */
export type FieldCheck = readonly [field: string, validate: Validator<unknown>, each: boolean];

export interface BodyCheck {
  /** The component validator of the whole body. */
  readonly whole: Validator<unknown>;
  /** Validators of `allOf` branches that apply to the whole body. */
  readonly parts: readonly Validator<unknown>[];
  readonly fields: readonly FieldCheck[];
}

function escapePointer(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * ajv reports a failed `oneOf`/`anyOf` as the errors of each branch followed
 * by a summary, and a bad property name as the inner error followed by
 * "property name must be valid". Each such group becomes one issue (the
 * summary, its message naming the alternatives), so one mistake reads as one.
 */
function condense(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    if (issue.keyword === "if") continue; // "must match then schema": an echo of the issue before it
    if (issue.keyword === "oneOf" || issue.keyword === "anyOf" || issue.keyword === "propertyNames") {
      const inner: ValidationIssue[] = [];
      while (out.length > 0 && covers(issue.instancePath, out[out.length - 1]!.instancePath)) inner.unshift(out.pop()!);
      if (inner.length > 0) {
        const describe = (i: ValidationIssue): string =>
          (i.instancePath === issue.instancePath ? "" : `${i.instancePath.slice(issue.instancePath.length)} `) + i.message;
        const message =
          issue.keyword === "propertyNames"
            ? `property name ${JSON.stringify(issue.params["propertyName"] ?? "")} ${inner.map(describe).join("; ")}`
            : `${issue.message}: ${inner.map(describe).join("; or ")}`;
        out.push({ ...issue, message });
        continue;
      }
    }
    const passing = issue.keyword === "oneOf" ? issue.params["passingSchemas"] : undefined;
    out.push(Array.isArray(passing) ? { ...issue, message: `${issue.message} (it matches ${passing.length}: branches ${passing.join(", ")})` } : issue);
  }
  return out;
}

/** The issues of a failed call, under `prefix`. */
function issuesOf(validate: Validator<unknown>, prefix: string): ValidationIssue[] {
  const all = condense(validate.errors ?? []);
  return prefix === "" ? all : all.map((i) => ({ ...i, instancePath: prefix + i.instancePath }));
}

function covers(outer: string, inner: string): boolean {
  return outer === inner || inner.startsWith(outer + "/");
}

/** `null` when the body is valid, else every problem found. */
export function checkBody(check: BodyCheck, body: unknown): ValidationIssue[] | null {
  if (check.whole(body)) return null;
  const whole = issuesOf(check.whole, "");
  const found: ValidationIssue[] = [];
  for (const part of check.parts) if (!part(body)) found.push(...issuesOf(part, ""));
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    for (const [field, validate, each] of check.fields) {
      if (!Object.prototype.hasOwnProperty.call(record, field)) continue;
      const value = record[field];
      const at = `/${escapePointer(field)}`;
      if (each && Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!validate(value[i])) found.push(...issuesOf(validate, `${at}/${i}`));
      } else if (!each && !validate(value)) {
        found.push(...issuesOf(validate, at));
      }
    }
  }
  for (const issue of whole) {
    if (!found.some((f) => covers(f.instancePath, issue.instancePath) || covers(issue.instancePath, f.instancePath))) found.push(issue);
  }
  const seen = new Set<string>();
  return found.filter((i) => {
    const key = `${i.instancePath}\u0000${i.keyword}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
