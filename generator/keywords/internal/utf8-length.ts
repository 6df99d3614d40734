/**
 * Code generation for "how many bytes is this string in UTF-8", shared by
 * `x-max-utf8-bytes` and `x-max-json-bytes`. Internal: not part of the
 * keywords' public surface.
 *
 * The emitted code is a plain loop over UTF-16 code units (no TextEncoder
 * allocation, no Node API), so it runs the same in every JavaScript runtime
 * and serializes into standalone validators unchanged.
 */
import { _, type CodeGen, type Code, type Name } from "ajv/dist/2020.js";

/**
 * Emits code that leaves in the returned variable a byte count that is exact
 * whenever it can exceed `limit`, and `str.length` (a lower bound) otherwise.
 *
 * Why the shortcut: one UTF-16 code unit never takes more than 3 UTF-8 bytes
 * (a surrogate pair is 2 units and 4 bytes), so a string with
 * `length * 3 <= limit` fits without being scanned. Typical values are far
 * below their limit and skip the loop entirely.
 *
 * Counting follows TextEncoder: a lone surrogate is encoded as U+FFFD
 * (3 bytes); a high surrogate followed by a low one is one 4-byte character.
 */
export function utf8ByteLengthCode(gen: CodeGen, str: Code, limit: number): Name {
  const bytes = gen.let("bytes", _`${str}.length`);
  gen.if(_`${bytes} * 3 > ${limit}`, () => {
    gen.assign(bytes, 0);
    gen.forRange("i", 0, _`${str}.length`, (i) => {
      const c = gen.const("c", _`${str}.charCodeAt(${i})`);
      gen.if(_`${c} < 0x80`);
      gen.code(_`${bytes} += 1`);
      gen.elseIf(_`${c} < 0x800`);
      gen.code(_`${bytes} += 2`);
      // High surrogate followed by a low surrogate: one 4-byte character.
      // charCodeAt past the end is NaN, and NaN & 0xfc00 is 0: no bound check.
      gen.elseIf(_`(${c} & 0xfc00) === 0xd800 && (${str}.charCodeAt(${i} + 1) & 0xfc00) === 0xdc00`);
      gen.code(_`${bytes} += 4`);
      gen.code(_`${i}++`);
      gen.else();
      gen.code(_`${bytes} += 3`);
      gen.endIf();
    });
  });
  return bytes;
}
