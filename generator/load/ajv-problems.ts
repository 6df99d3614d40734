/**
 * Turning ajv's error list into a few problems a person can act on: one per
 * instance location, the most specific keyword first (an `enum` miss says
 * more than the `anyOf` that wraps it).
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import { closest } from "./suggest.js";
import { parsePointer } from "./json-pointer.js";

export interface AjvProblem {
  /** Pointer (segments) to the offending value, relative to what was validated. */
  readonly at: string[];
  /** Point at the key rather than the value (unknown fields). */
  readonly key: boolean;
  readonly message: string;
  readonly fix?: string;
}

/** Lower is more specific. Combinator summaries come last. */
const PRIORITY: Readonly<Record<string, number>> = {
  unevaluatedProperties: 0,
  additionalProperties: 0,
  enum: 1,
  const: 1,
  required: 2,
  type: 3,
  pattern: 4,
  format: 4,
  // Its summary of a name that failed: the error inside it says why (and names the key).
  propertyNames: 8,
  if: 9,
  anyOf: 9,
  oneOf: 9,
  allOf: 9,
  not: 8,
  $ref: 9,
};

export function selectProblems(
  errors: readonly ErrorObject[],
  describe?: (error: ErrorObject) => string | undefined,
): AjvProblem[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const list = byPath.get(error.instancePath) ?? [];
    list.push(error);
    byPath.set(error.instancePath, list);
  }
  // A path whose only errors are summaries of deeper failures adds nothing.
  const paths = [...byPath.keys()];
  const problems: AjvProblem[] = [];
  for (const [instancePath, list] of byPath) {
    const specific = list.filter((error) => (PRIORITY[error.keyword] ?? 5) < 8);
    const hasDeeper = paths.some((other) => other !== instancePath && other.startsWith(`${instancePath}/`));
    if (specific.length === 0 && hasDeeper) continue;
    const chosen = specific.length > 0 ? specific : list;
    const best = Math.min(...chosen.map((error) => PRIORITY[error.keyword] ?? 5));
    const seen = new Set<string>();
    for (const error of chosen.filter((e) => (PRIORITY[e.keyword] ?? 5) === best)) {
      const problem = toProblem(error, describe?.(error));
      const id = `${problem.at.join("/")}|${problem.message}`;
      if (seen.has(id)) continue;
      seen.add(id);
      problems.push(problem);
    }
  }
  return problems;
}

function toProblem(error: ErrorObject, objectName: string | undefined): AjvProblem {
  const at = parsePointer(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const where = objectName ? ` in ${objectName}` : "";
  const last = at[at.length - 1];
  // A key that fails `propertyNames` (a component named `Bad name`): ajv places the error at the object; the key is the place.
  const name = error.propertyName ?? (error.keyword === "propertyNames" ? params.propertyName : undefined);
  if (typeof name === "string") {
    return {
      at: [...at, name],
      key: true,
      message: `the name ${JSON.stringify(name)}${last === undefined ? "" : ` in ${JSON.stringify(last)}`}${where} ${error.keyword === "propertyNames" ? "is invalid" : (error.message ?? "is invalid")}.`,
    };
  }
  const allowed = (error.parentSchema?.properties ?? {}) as Record<string, unknown>;
  switch (error.keyword) {
    case "unevaluatedProperties":
    case "additionalProperties": {
      const name = String(params.unevaluatedProperty ?? params.additionalProperty);
      const suggestion = closest(name, Object.keys(allowed));
      return {
        at: [...at, name],
        key: true,
        message: `unknown field ${JSON.stringify(name)}${where}.`,
        fix: suggestion
          ? `Did you mean ${JSON.stringify(suggestion)}? Otherwise remove it (vendor fields start with "x-").`
          : `Remove it, or prefix it with "x-" if it is a vendor extension.`,
      };
    }
    case "required":
      return { at, key: false, message: `missing required field ${JSON.stringify(params.missingProperty)}${where}.` };
    case "enum": {
      const values = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
      const suggestion =
        typeof error.data === "string"
          ? closest(error.data, (params.allowedValues as unknown[]).map(String))
          : undefined;
      return {
        at,
        key: false,
        message: `${last === undefined ? "value" : JSON.stringify(last)} is ${JSON.stringify(error.data)}; it must be one of ${values.join(", ")}.`,
        ...(suggestion !== undefined && { fix: `Did you mean ${JSON.stringify(suggestion)}?` }),
      };
    }
    default:
      return {
        at,
        key: false,
        message: `${last === undefined ? "value" : JSON.stringify(last)} ${error.message ?? "is invalid"}${where}.`,
      };
  }
}
