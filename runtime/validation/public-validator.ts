/**
 * A public validator over a shared compiled function. The validators of one
 * level share the functions they have in common (generated/validators/
 * internal/), so `validateToolRef`'s function also runs inside every
 * `validateRunCreateRequest` call and would have its `errors` replaced
 * there. The public function keeps `errors` of its own: the issues of the
 * caller's last call to that validator, as the `Validator` contract says.
 */
import type { ValidationIssue, Validator } from "./issue.js";

/** What a compiled (ajv standalone) function is: a predicate that leaves its issues on itself. */
export interface CompiledCheck {
  (data: unknown): boolean;
  errors?: ValidationIssue[] | null;
}

/** `check` as a `Validator` whose `errors` only its own calls set (`null` before the first). */
export function publicValidator<T>(check: CompiledCheck): Validator<T> {
  const validate = ((data: unknown): boolean => {
    const valid = check(data);
    validate.errors = check.errors ?? null;
    return valid;
  }) as Validator<T>;
  validate.errors = null;
  return validate;
}
