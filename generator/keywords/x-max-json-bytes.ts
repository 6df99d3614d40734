/**
 * `x-max-json-bytes: N` (schema/CONVENTIONS.md, "Vendor keywords"):
 * `JSON.stringify(value)` (no whitespace) encodes to at most N UTF-8 bytes.
 * Used for "metadata at most 4 KB serialized", "outputSchema at most 32 KB".
 */
import { _, str, type CodeKeywordDefinition, type KeywordCxt } from "ajv/dist/2020.js";
import { utf8ByteLengthCode } from "./internal/utf8-length.js";

export const xMaxJsonBytes: CodeKeywordDefinition = {
  keyword: "x-max-json-bytes",
  // No `type`: applies to every JSON value.
  schemaType: "number",
  metaSchema: { type: "integer", minimum: 0 },
  error: {
    message: ({ params }) => str`must be at most ${params.limit} bytes as JSON (is ${params.actual})`,
    params: ({ params }) => _`{limit: ${params.limit}, actual: ${params.actual}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const limit = cxt.schema as number;
    // Validated data is parsed JSON, so stringify neither throws nor returns
    // undefined here. JSON.stringify escapes lone surrogates (ES2019), so the
    // byte count is that of the bytes a client would send.
    const json = gen.const("json", _`JSON.stringify(${data})`);
    const bytes = utf8ByteLengthCode(gen, json, limit);
    cxt.setParams({ limit, actual: bytes });
    cxt.fail(_`${bytes} > ${limit}`);
  },
};
