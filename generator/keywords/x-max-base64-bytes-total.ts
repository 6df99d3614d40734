/**
 * `x-max-base64-bytes-total: { max: N, path: [segments] }`
 * (schema/CONVENTIONS.md, "Vendor keywords"): the decoded byte length of every
 * string reached by `path`, summed, is at most N. A segment is a property name,
 * or `"*"` for every array item / object value. Used for "inline attachment
 * bytes total at most 5 MB per run".
 *
 * The path is known when the schema is compiled, so the walk is unrolled into
 * nested loops here; nothing interprets the path at run time.
 */
import {
  _,
  str,
  type CodeGen,
  type Code,
  type CodeKeywordDefinition,
  type KeywordCxt,
  type Name,
} from "ajv/dist/2020.js";

interface Base64Total {
  max: number;
  path: string[];
}

export const xMaxBase64BytesTotal: CodeKeywordDefinition = {
  keyword: "x-max-base64-bytes-total",
  type: ["array", "object"],
  schemaType: "object",
  metaSchema: {
    type: "object",
    required: ["max", "path"],
    properties: {
      max: { type: "integer", minimum: 0 },
      path: { type: "array", minItems: 1, items: { type: "string", minLength: 1 } },
    },
    additionalProperties: false,
  },
  error: {
    message: ({ params }) =>
      str`must have at most ${params.limit} base64-decoded bytes in total at ${params.path} (is ${params.actual})`,
    params: ({ params }) => _`{limit: ${params.limit}, actual: ${params.actual}, path: ${params.path}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const { max, path } = cxt.schema as Base64Total;
    const total = gen.let("total", 0);
    walk(gen, data, path, (s) => addDecodedLength(gen, s, total));
    cxt.setParams({ limit: max, actual: total, path: path.join("/") });
    cxt.fail(_`${total} > ${max}`);
  },
};

/** Emits loops that call `onString` for every string reached by `segments` from `value`. */
function walk(gen: CodeGen, value: Code, segments: readonly string[], onString: (s: Code) => void): void {
  const [segment, ...rest] = segments;
  if (segment === undefined) {
    gen.if(_`typeof ${value} == "string"`, () => onString(value));
  } else if (segment === "*") {
    // One loop for arrays and objects, so the subtree is emitted once per
    // `*` (branching on the container type would double it at every `*`).
    const items = gen.const(
      "items",
      _`Array.isArray(${value}) ? ${value} : ${value} !== null && typeof ${value} == "object" ? Object.values(${value}) : []`,
    );
    gen.forOf("item", items, (item) => walk(gen, item, rest, onString));
  } else {
    gen.if(_`${value} !== null && typeof ${value} == "object" && !Array.isArray(${value})`, () =>
      walk(gen, gen.const("value", _`${value}[${segment}]`), rest, onString),
    );
  }
}

/**
 * Decoded length from the string length and its `=` padding alone, without
 * decoding (no atob, no allocation): multi-megabyte payloads cost O(1).
 * `floor(3n/4)` is exact for padded and unpadded valid base64 once the
 * padding is taken off. A string that is not valid base64 counts as its
 * length x 3/4 rounded down (the convention says x 3/4; rounding keeps the
 * total an integer), except that trailing `=` are still taken off: telling
 * valid from invalid would need a scan, and the schema's `pattern` on the
 * same strings rejects invalid base64 anyway.
 */
function addDecodedLength(gen: CodeGen, s: Code, total: Name): void {
  const n = gen.const("n", _`${s}.length`);
  gen.add(total, _`Math.floor(${n} * 3 / 4)`);
  gen.if(_`${n} % 4 === 0 && ${n} > 0 && ${s}.charCodeAt(${n} - 1) === 61`, () => {
    gen.add(total, _`${s}.charCodeAt(${n} - 2) === 61 ? -2 : -1`);
  });
}
