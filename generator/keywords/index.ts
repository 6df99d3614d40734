/**
 * The vendor keywords of schema/CONVENTIONS.md as ajv keyword definitions.
 *
 * The asserting ones generate code (`code(cxt)` with ajv's codegen), never
 * `validate` closures, so what they check serializes into standalone
 * validators exactly as live ajv runs it. The same registration serves the
 * generator and the tests that run live ajv.
 */
import type { Ajv2020, KeywordDefinition } from "ajv/dist/2020.js";
import { openApiAnnotations } from "./openapi-annotations.js";
import { xBase64 } from "./x-base64.js";
import { xEqualProperties } from "./x-equal-properties.js";
import { xGreaterThan } from "./x-greater-than.js";
import { xItemSchema } from "./x-item-schema.js";
import { xKnownValues } from "./x-known-values.js";
import { xLastNonSystemRole } from "./x-last-non-system-role.js";
import { xMaxBase64BytesTotal } from "./x-max-base64-bytes-total.js";
import { xMaxJsonBytes } from "./x-max-json-bytes.js";
import { xMaxUtf8Bytes } from "./x-max-utf8-bytes.js";
import { xNotGreaterThan } from "./x-not-greater-than.js";
import { xPropertyOnlyOnLastRole } from "./x-property-only-on-last-role.js";
import { xReceive } from "./x-receive.js";
import { xReceiveDefault } from "./x-receive-default.js";
import { xStrictOnly } from "./x-strict-only.js";
import { xTerminal } from "./x-terminal.js";
import { xTolerated } from "./x-tolerated.js";
import { xTranscriptRules } from "./x-transcript-rules.js";

/** Keywords that the generated validators enforce. */
export const assertingKeywords: readonly KeywordDefinition[] = [
  xMaxUtf8Bytes,
  xMaxJsonBytes,
  xMaxBase64BytesTotal,
  xBase64,
  xGreaterThan,
  xNotGreaterThan,
  xEqualProperties,
  xLastNonSystemRole,
  xPropertyOnlyOnLastRole,
];

/** The names of `definitions` (a definition may name several keywords). */
export const keywordNames = (definitions: readonly KeywordDefinition[]): string[] =>
  definitions.flatMap((def) => [def.keyword].flat().map(String));

/** The names of the keywords the generated validators enforce (their errors are the `x-` ones). */
export const ASSERTING_KEYWORD_NAMES: ReadonlySet<string> = new Set(keywordNames(assertingKeywords));

/** Keywords that are accepted and ignored (annotations). */
export const annotationKeywords: readonly KeywordDefinition[] = [
  xKnownValues,
  xItemSchema,
  xTranscriptRules,
  xTerminal,
  xReceive,
  xReceiveDefault,
  xStrictOnly,
  ...openApiAnnotations,
];

/**
 * Keywords no schema writes: the receive level derives them
 * (generator/emit/validators/receive-level.ts), and the generated code runs them.
 */
export const derivedKeywords: readonly KeywordDefinition[] = [xTolerated];

/**
 * Adds every vendor and OpenAPI annotation keyword to `ajv`; returns it.
 * `valuesChecked`: the keywords' values were checked already (the loader
 * checks them with these same meta-schemas, load/validate-schemas.ts), so
 * ajv is not given the meta-schemas, which it would compile for every
 * instance (a tenth of a second per instance, cold) to check them again.
 * `except`: a keyword not to add (the instance then ignores it).
 */
export function registerVendorKeywords(
  ajv: Ajv2020,
  { valuesChecked = false, except }: { valuesChecked?: boolean; except?: string } = {},
): Ajv2020 {
  for (const full of [...assertingKeywords, ...annotationKeywords, ...derivedKeywords]) {
    // `except`: one keyword left out (a judge of what a validator lacking it decides; fixtures/live-ajv.ts).
    const names = keywordNames([full]).filter((name) => name !== except);
    if (names.length === 0) continue;
    const def: KeywordDefinition = names.length === keywordNames([full]).length ? full : { ...full, keyword: names };
    if (valuesChecked && def.metaSchema !== undefined) {
      const { metaSchema: _checked, ...rest } = def;
      ajv.addKeyword(rest);
    } else ajv.addKeyword(def);
  }
  return ajv;
}

export {
  xBase64,
  xEqualProperties,
  xGreaterThan,
  xItemSchema,
  xKnownValues,
  xLastNonSystemRole,
  xMaxBase64BytesTotal,
  xMaxJsonBytes,
  xMaxUtf8Bytes,
  xNotGreaterThan,
  xPropertyOnlyOnLastRole,
  xReceive,
  xReceiveDefault,
  xStrictOnly,
  xTerminal,
  xTolerated,
  xTranscriptRules,
};
