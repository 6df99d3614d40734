/**
 * `x-equal-properties: [{ property: A, equals: B }]` (schema/CONVENTIONS.md,
 * "Vendor keywords"): when both A and B are present and neither is an object
 * or an array, A === B. The documents state such duplicates: an `error`
 * event's `code` "equals `errorClass` when present", an `mcp_local` call's
 * `mcpToolName` "duplicates `name`". Absent values are left to `required`,
 * structured values to the other keywords.
 */
import { _, str, type CodeKeywordDefinition, type KeywordCxt } from "ajv/dist/2020.js";
import { propertyPairsMetaSchema } from "./internal/property-pairs.js";

interface EqualPair {
  property: string;
  equals: string;
}

export const xEqualProperties: CodeKeywordDefinition = {
  keyword: "x-equal-properties",
  type: "object",
  schemaType: "array",
  metaSchema: propertyPairsMetaSchema("equals"),
  error: {
    message: ({ params }) => str`must have ${params.property} equal to ${params.equals}`,
    params: ({ params }) => _`{property: ${params.property}, equals: ${params.equals}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    for (const { property, equals } of cxt.schema as EqualPair[]) {
      const a = gen.const("a", _`${data}[${property}]`);
      const b = gen.const("b", _`${data}[${equals}]`);
      cxt.setParams({ property, equals });
      // `typeof null` is "object" too: null against a string is still a mismatch.
      const scalar = (v: typeof a) => _`(${v} === null || typeof ${v} != "object")`;
      cxt.fail(_`${a} !== undefined && ${b} !== undefined && ${scalar(a)} && ${scalar(b)} && ${a} !== ${b}`);
    }
  },
};
