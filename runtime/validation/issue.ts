/**
 * What a generated validator reports. The shape is stable: it is ajv's error
 * object (without its `verbose` fields), so tools written for ajv errors read it.
 *
 * Validators stop at the first failing keyword (ajv `allErrors: false`):
 * `errors` holds its issue. A discriminated union checks only the branch its
 * tag selects, so a wrong variant yields that branch's one issue. A
 * `oneOf`/`anyOf` without discriminator lists the first issue of each branch,
 * then the union's own issue (keyword `oneOf`/`anyOf`). The all-errors builds
 * (`validate<Name>AllErrors`) list every issue.
 */
export interface ValidationIssue {
  /** JSON Pointer to the failing value in the validated data, `""` for the root. */
  instancePath: string;
  /**
   * JSON Pointer to the failing keyword, as a URI fragment, from the root of
   * the schema whose code reported it: the validated component's, or, for a
   * keyword reached through a `$ref`, the referenced component's (every
   * `$ref` is a call of that component's own code; ajv's convention).
   */
  schemaPath: string;
  /** The failing keyword: a JSON Schema keyword, `discriminator`, or a vendor keyword such as `x-max-json-bytes`. */
  keyword: string;
  /** English, for people: "must be at most 4096 bytes as JSON (is 5120)". */
  message: string;
  /** Machine-readable details; for the byte keywords `{ limit, actual }`. */
  params: Record<string, unknown>;
}

/**
 * A generated validator: a type guard whose `errors` property describes the
 * last call. `errors` is `null` before the first call and after a valid one.
 */
export interface Validator<T> {
  (data: unknown): data is T;
  errors: ValidationIssue[] | null;
}
