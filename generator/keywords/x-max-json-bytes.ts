/**
 * `x-max-json-bytes: N` (schema/CONVENTIONS.md, "Vendor keywords"):
 * `JSON.stringify(value)` (no whitespace) encodes to at most N UTF-8 bytes.
 * Used for "metadata at most 4 KB serialized", "outputSchema at most 32 KB".
 */
import { _, type CodeKeywordDefinition, type KeywordCxt } from "ajv/dist/2020.js";
import { utf8ByteLengthCode } from "./internal/utf8-length.js";

/** `actual` when the value cannot be serialized at all. */
const UNSERIALIZABLE = -1;

export const xMaxJsonBytes: CodeKeywordDefinition = {
  keyword: "x-max-json-bytes",
  // No `type`: applies to every JSON value.
  schemaType: "number",
  metaSchema: { type: "integer", minimum: 0 },
  error: {
    message: ({ params }) =>
      _`"must be at most " + ${params.limit} + " bytes as JSON " + (${params.actual} === ${UNSERIALIZABLE} ? "(cannot be serialized: nested too deeply, or not JSON data)" : "(is " + ${params.actual} + ")")`,
    params: ({ params }) => _`{limit: ${params.limit}, actual: ${params.actual}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const limit = cxt.schema as number;
    // JSON.stringify throws for a value nested deeper than the engine's stack
    // (a RangeError: 100,000-deep metadata), a cycle or a BigInt (a body the
    // caller built, not parsed JSON). Such a value cannot be sent at all, so
    // it fails the keyword (actual -1) instead of throwing out of the
    // validator. JSON.stringify escapes lone surrogates (ES2019), so the
    // byte count is that of the bytes a client would send.
    const json = gen.let("json", _`""`);
    const serialized = gen.let("serialized", true);
    gen.try(
      () => gen.assign(json, _`JSON.stringify(${data})`),
      () => gen.assign(serialized, false),
    );
    const bytes = utf8ByteLengthCode(gen, json, limit);
    gen.if(_`!${serialized}`, () => gen.assign(bytes, UNSERIALIZABLE));
    cxt.setParams({ limit, actual: bytes });
    cxt.fail(_`${bytes} > ${limit} || ${bytes} === ${UNSERIALIZABLE}`);
  },
};
