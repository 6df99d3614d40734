/**
 * `x-not-greater-than: [{ property: A, than: B }]` (schema/CONVENTIONS.md,
 * "Vendor keywords"): when both A and B are present numbers, A <= B. For
 * example a token breakdown is a slice of its total: `cachedTokens` is part
 * of `inputTokens` (agent-runs-protocol.md §7.1). Absent or non-numeric
 * values are left to the other keywords.
 */
import { _, str, type CodeKeywordDefinition, type KeywordCxt } from "ajv/dist/2020.js";
import { propertyPairsMetaSchema } from "./internal/property-pairs.js";

interface NotGreaterThan {
  property: string;
  than: string;
}

export const xNotGreaterThan: CodeKeywordDefinition = {
  keyword: "x-not-greater-than",
  type: "object",
  schemaType: "array",
  metaSchema: propertyPairsMetaSchema("than"),
  error: {
    message: ({ params }) =>
      str`must have ${params.property} at most ${params.than} (is ${params.actual}, more than ${params.limit})`,
    params: ({ params }) =>
      _`{property: ${params.property}, than: ${params.than}, limit: ${params.limit}, actual: ${params.actual}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    // One check per pair, unrolled: the pairs are known at compile time.
    for (const { property, than } of cxt.schema as NotGreaterThan[]) {
      const a = gen.const("a", _`${data}[${property}]`);
      const b = gen.const("b", _`${data}[${than}]`);
      cxt.setParams({ property, than, limit: b, actual: a });
      cxt.fail(_`typeof ${a} == "number" && typeof ${b} == "number" && ${a} > ${b}`);
    }
  },
};
