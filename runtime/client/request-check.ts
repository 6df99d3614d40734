/**
 * Request-body checking with the generated validators: the fast validator
 * (it stops at its first problem) decides; only when it fails does the
 * all-errors build of the same component (`validate<Name>AllErrors`) run,
 * so a RequestValidationError lists every problem. Its issues are kept as
 * ajv reports them (a failed `oneOf` lists each branch's issue, then the
 * union's own), without the `if` ones, which only echo the issue before them.
 */
import type { ValidationIssue, Validator } from "../../generated/validators/runtime.js";

/** A request body's validators: `[fast, allErrors]`. */
export type BodyCheck = readonly [fast: Validator<unknown>, allErrors: Validator<unknown>];

/** Falsy when the body is valid, else every problem. */
export const bodyIssues = ([fast, all]: BodyCheck, body: unknown): ValidationIssue[] | false =>
  !fast(body) && ((all(body) ? fast : all).errors ?? []).filter((i) => i.keyword != "if");
