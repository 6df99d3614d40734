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

/** The issues of a failed call, under `prefix`, without ajv's `if` echo ("must match then schema"). */
function issuesOf(validate: Validator<unknown>, prefix: string): ValidationIssue[] {
  const all = (validate.errors ?? []).map((i) => (prefix === "" ? i : { ...i, instancePath: prefix + i.instancePath }));
  const real = all.filter((i) => i.keyword !== "if");
  return real.length > 0 ? real : all;
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
