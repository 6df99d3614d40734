/**
 * `x-base64: { alphabet, padding }` (schema/CONVENTIONS.md, "Vendor
 * keywords"): the string is base64 as RFC 4648 defines it. `alphabet`:
 * `standard` (§4: A–Z a–z 0–9 + /) or `url` (§5: A–Z a–z 0–9 - _).
 * `padding`: `required` (the length is a multiple of 4, completed with `=`),
 * `optional` (either that, or no `=` at all and a length that is not 1 more
 * than a multiple of 4), or `forbidden` (no `=`). Every character outside the
 * alphabet is refused, line breaks and spaces too (§3.3); `=` only as the
 * last one or two characters. Bits a decoder would drop from the last
 * character are not checked (§3.5 leaves rejecting them to the decoder).
 *
 * Why a keyword, not a `pattern`: a regular expression that checks the
 * length modulo 4 (`^(?:[A-Za-z0-9+/]{4})*…$`) overflows V8's regexp stack on
 * a 5 MB attachment. The emitted code is one pass of `charCodeAt` over the
 * string: linear, no allocation, no regexp, the same in every runtime.
 */
import { _, str, type Code, type CodeKeywordDefinition, type KeywordCxt } from "ajv/dist/2020.js";

export type Base64Alphabet = "standard" | "url";
export type Base64Padding = "required" | "optional" | "forbidden";

interface Base64Spec {
  alphabet: Base64Alphabet;
  padding: Base64Padding;
}

const EQUALS = 61;

/** The two characters after A–Z a–z 0–9 (RFC 4648 §4 and §5). */
const LAST_TWO: Record<Base64Alphabet, readonly [number, number]> = { standard: [43, 47], url: [45, 95] };

/** How an error names the encoding. */
const NAMES: Record<Base64Alphabet, string> = {
  standard: "base64 (RFC 4648 §4: A-Z a-z 0-9 + /",
  url: "base64url (RFC 4648 §5: A-Z a-z 0-9 - _",
};

export const xBase64: CodeKeywordDefinition = {
  keyword: "x-base64",
  type: "string",
  schemaType: "object",
  metaSchema: {
    type: "object",
    required: ["alphabet", "padding"],
    properties: {
      alphabet: { enum: ["standard", "url"] },
      padding: { enum: ["required", "optional", "forbidden"] },
    },
    additionalProperties: false,
  },
  error: {
    message: ({ params }) =>
      str`must be ${params.encoding}, padding ${params.padding}): ${params.problem} at index ${params.position}`,
    params: ({ params }) =>
      _`{alphabet: ${params.alphabet}, padding: ${params.padding}, problem: ${params.problem}, position: ${params.position}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const { alphabet, padding } = cxt.schema as Base64Spec;
    const [c62, c63] = LAST_TWO[alphabet];
    const n = gen.const("n", _`${data}.length`);
    // The data characters end before at most two trailing "=".
    const end = gen.let("end", n);
    gen.if(_`${end} > 0 && ${data}.charCodeAt(${end} - 1) === ${EQUALS}`, () => {
      gen.code(_`${end}--`);
      gen.if(_`${end} > 0 && ${data}.charCodeAt(${end} - 1) === ${EQUALS}`, () => gen.code(_`${end}--`));
    });
    const problem = gen.let("problem", _`""`);
    const position = gen.let("position", end);
    gen.forRange("i", 0, end, (i) => {
      const c = gen.const("c", _`${data}.charCodeAt(${i})`);
      const inAlphabet: Code = _`(${c} >= 65 && ${c} <= 90) || (${c} >= 97 && ${c} <= 122) || (${c} >= 48 && ${c} <= 57) || ${c} === ${c62} || ${c} === ${c63}`;
      gen.if(_`!(${inAlphabet})`, () => {
        gen.assign(problem, _`${c} === ${EQUALS} ? "\\"=\\" before the end" : "a character outside the alphabet"`);
        gen.assign(position, i);
        gen.break();
      });
    });
    gen.if(_`${problem} === ""`, () => {
      // One character left over after groups of 4 encodes no whole byte: never base64.
      gen.if(_`${end} % 4 === 1`);
      gen.assign(problem, _`"a length no base64 string has"`);
      // "=" only completes the last group to 4 characters.
      gen.elseIf(_`${end} !== ${n} && ${n} % 4 !== 0`);
      gen.assign(problem, _`"padding that does not complete a group of 4"`);
      if (padding === "required") {
        gen.elseIf(_`${n} % 4 !== 0`);
        gen.assign(problem, _`"no padding (the length is not a multiple of 4)"`);
      }
      if (padding === "forbidden") {
        gen.elseIf(_`${end} !== ${n}`);
        gen.assign(problem, _`"padding, which is forbidden here"`);
      }
      gen.endIf();
    });
    cxt.setParams({ encoding: NAMES[alphabet], alphabet, padding, problem, position });
    cxt.fail(_`${problem} !== ""`);
  },
};
