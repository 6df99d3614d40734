/**
 * `x-max-utf8-bytes: N` (schema/CONVENTIONS.md, "Vendor keywords"): the
 * UTF-8 encoding of a string is at most N bytes. `maxLength` counts code
 * points; server limits such as "error at most 8 KB" count bytes.
 */
import { _, str, type CodeKeywordDefinition, type KeywordCxt } from "ajv/dist/2020.js";
import { utf8ByteLengthCode } from "./internal/utf8-length.js";

export const xMaxUtf8Bytes: CodeKeywordDefinition = {
  keyword: "x-max-utf8-bytes",
  type: "string",
  schemaType: "number",
  metaSchema: { type: "integer", minimum: 0 },
  error: {
    message: ({ params }) => str`must be at most ${params.limit} bytes as UTF-8 (is ${params.actual})`,
    params: ({ params }) => _`{limit: ${params.limit}, actual: ${params.actual}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const limit = cxt.schema as number;
    const bytes = utf8ByteLengthCode(gen, data, limit);
    cxt.setParams({ limit, actual: bytes });
    cxt.fail(_`${bytes} > ${limit}`);
  },
};
