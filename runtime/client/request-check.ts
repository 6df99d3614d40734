/**
 * Request-body checking with the generated all-errors build of the body's
 * component (`validate<Name>AllErrors`): a body is checked once per call, so
 * one build that lists every problem costs less, in bytes a program
 * bundles, than a fast build beside it. Its `issues` are kept as ajv reports
 * them (a failed `oneOf` lists each branch's issue, then the union's own),
 * without the `if` ones, which only echo the issue before them.
 */
import type { ValidationIssue } from "../validation/issue.js";
import type { OperationKind } from "./core.js";
import type { BodyCheck } from "./operation.js";
import { RequestValidationError } from "./errors.js";

/** Falsy when the body is valid, else every problem. */
export const bodyIssues = (all: BodyCheck, body: unknown): ValidationIssue[] | false =>
  !all(body) && (all.errors ?? []).filter((i) => i.keyword != "if");

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
  const about = (i: ValidationIssue, path: string): boolean =>
    i.instancePath == path || i.instancePath.startsWith(`${path}/`);
  const shown = issues.filter(
    (i) =>
      !((i.keyword == "oneOf" || i.keyword == "anyOf") && issues.length > 1) &&
      !(
        i.keyword == "false schema" &&
        issues.some((j) => j != i && j.keyword != "false schema" && about(j, i.instancePath))
      ),
  );
  return shown
    .map((i) => `\n  ${i.instancePath || "(body)"}: ${i.keyword == "false schema" ? "must not be present" : i.message}`)
    .join("");
}

/**
 * Request-body checking as an operation kind (core.ts): the body is checked
 * with the entry's `body` validator as the client's `validation` says
 * (`"throw"`, the default: a RequestValidationError listing every problem,
 * nothing sent; `"warn"`: reported to `onWarning`, then sent; `"off"`: not
 * checked), then the call goes on as `next` makes it (by default a plain
 * one; `onceKind` for an at-most-once operation).
 */
export const checkedBody =
  (next?: OperationKind): OperationKind =>
  async (call) => {
    const { id, operation, args, paramsIndex, settings, send } = call;
    const { validation: mode, onWarning = (m: string) => console.warn(m) } = settings;
    const issues = mode != "off" && bodyIssues(operation.body!, args[paramsIndex - 1]);
    if (issues) {
      const e = new RequestValidationError(`${id}: invalid body, not sent:${describeBodyIssues(issues)}`, {
        operationId: id,
        issues,
      });
      if (mode != "warn") throw e;
      onWarning(e.message, e);
    }
    return next ? next(call) : send();
  };
