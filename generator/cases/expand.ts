/**
 * Expands the three repetition forms of hand-written cases
 * (schema/CONVENTIONS.md, "Hand-written cases") into plain JSON, so every
 * consumer — schema tests, validator tests, the fixture suite for other
 * languages — sees ordinary data and never needs this code.
 *
 * A `$repeatString` makes strings of megabytes; the size of their JSON is
 * known by arithmetic, so each object or array holding one is told its JSON
 * size (generator/emit/fixtures/json-size.ts): the fixture manifest lists
 * the size of every case too large to ship, and counting those strings again
 * cost a regular-expression pass over each (a fortieth of `gen`).
 */
import { jsonUtf8Bytes, rememberJsonUtf8Bytes, repeatedStringBytes } from "../emit/fixtures/json-size.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function expandCaseData(value: Json): Json {
  return expand(value).value;
}

/** The expanded value, and its JSON size where a repeated string makes it known (else undefined: nobody asked). */
function expand(value: Json): { value: Json; bytes: number | undefined } {
  if (Array.isArray(value)) return array(value.map(expand));
  if (value === null || typeof value !== "object") return { value, bytes: undefined };
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const spec = value[keys[0]!] as { [key: string]: Json };
    switch (keys[0]) {
      case "$repeatString": {
        const unit = String(spec.value);
        const repeated = unit.repeat(Number(spec.count));
        return {
          value: repeated,
          bytes: unit.length === 0 ? 2 : repeatedStringBytes(unit, repeated.length / unit.length),
        };
      }
      case "$repeatItems":
        return array(Array.from({ length: Number(spec.count) }, () => expand(spec.value as Json)));
      case "$repeatEntries": {
        const entries: Array<[string, { value: Json; bytes: number | undefined }]> = [];
        for (let i = 0; i < Number(spec.count); i++)
          entries.push([String(spec.key).replaceAll("{i}", String(i)), expand(spec.value as Json)]);
        return object(entries);
      }
    }
  }
  return object(keys.map((key) => [key, expand(value[key] as Json)]));
}

function array(items: ReadonlyArray<{ value: Json; bytes: number | undefined }>): {
  value: Json;
  bytes: number | undefined;
} {
  const out = items.map((item) => item.value);
  if (!items.some((item) => item.bytes !== undefined)) return { value: out, bytes: undefined };
  let bytes = 2 + Math.max(0, items.length - 1);
  for (const item of items) bytes += item.bytes ?? jsonUtf8Bytes(item.value);
  rememberJsonUtf8Bytes(out, bytes);
  return { value: out, bytes };
}

function object(entries: ReadonlyArray<[string, { value: Json; bytes: number | undefined }]>): {
  value: Json;
  bytes: number | undefined;
} {
  const out: { [key: string]: Json } = {};
  for (const [key, entry] of entries) out[key] = entry.value;
  if (!entries.some(([, entry]) => entry.bytes !== undefined)) return { value: out, bytes: undefined };
  // The members JSON.stringify writes: `out`'s own keys (a repeated key once, with its last value; no `__proto__`).
  const sizes = new Map(entries.map(([key, entry]) => [key, entry.bytes]));
  const own = Object.keys(out);
  let bytes = 2 + Math.max(0, own.length - 1);
  for (const key of own) bytes += jsonUtf8Bytes(key) + 1 + (sizes.get(key) ?? jsonUtf8Bytes(out[key]!));
  rememberJsonUtf8Bytes(out, bytes);
  return { value: out, bytes };
}
