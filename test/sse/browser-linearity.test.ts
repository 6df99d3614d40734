/**
 * The browser framing (runtime/sse/framing.browser.ts) stays linear
 * whatever the chunking, checked structurally, never with wall-clock time
 * (test/sse/linearity.test.ts counts the server framing's own machinery and
 * runs on it only): while it runs, the bytes given to TextDecoder#decode,
 * the text given to String#split and the text Array#join builds are
 * counted. Each must stay within one pass over the input, so a very long
 * line arriving in tiny chunks (the pieces of a character held back by the
 * decoder included) cannot go quadratic.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { decoder } from "../../runtime/sse/framing.browser.js";
import { toBytes } from "./helpers.js";

const work = { decoded: 0, split: 0, joined: 0 };
const originals = { decode: TextDecoder.prototype.decode, split: String.prototype.split, join: Array.prototype.join };

beforeEach(() => {
  const { decode, split, join } = originals;
  TextDecoder.prototype.decode = function (
    this: TextDecoder,
    input?: AllowSharedBufferSource,
    options?: TextDecodeOptions,
  ) {
    work.decoded += input === undefined ? 0 : input.byteLength;
    return decode.call(this, input, options);
  };
  String.prototype.split = function (this: string, ...args: unknown[]) {
    work.split += this.length;
    return (split as (...a: unknown[]) => string[]).apply(this, args);
  } as typeof String.prototype.split;
  Array.prototype.join = function (this: unknown[], separator?: string) {
    const out = join.call(this, separator);
    work.joined += out.length;
    return out;
  };
});

afterEach(() => {
  TextDecoder.prototype.decode = originals.decode;
  String.prototype.split = originals.split;
  Array.prototype.join = originals.join;
});

it.each([1, 2, 7, 4096])(
  "a 192 KiB line of 1-, 2- and 3-byte characters in %i-byte chunks: one pass of decoding, splitting and joining",
  (size) => {
    const value = "aé€".repeat(32 * 1024);
    const bytes = toBytes(`data: ${value}\n\n: done\n`);
    const text = `data: ${value}\n\n: done\n`;
    const seen: string[] = [];
    const feed = decoder({ onMessage: (m) => seen.push(m.data), onComment: (c) => seen.push(c) }, Infinity);
    work.decoded = work.split = work.joined = 0;
    for (let i = 0; i < bytes.length; i += size) feed(bytes.subarray(i, i + size));
    const counted = { ...work };
    expect(seen).toEqual([value, " done"]);
    expect(counted.decoded).toBe(bytes.length);
    expect(counted.split).toBeLessThanOrEqual(text.length);
    expect(counted.split).toBeGreaterThan(0); // the counters do count
    expect(counted.joined).toBeLessThanOrEqual(text.length);
  },
);
