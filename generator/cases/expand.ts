/**
 * Expands the three repetition forms of hand-written cases
 * (schema/CONVENTIONS.md, "Hand-written cases") into plain JSON, so every
 * consumer — schema tests, validator tests, the fixture suite for other
 * languages — sees ordinary data and never needs this code.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function expandCaseData(value: Json): Json {
  if (Array.isArray(value)) return value.map(expandCaseData);
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const spec = value[keys[0]!] as { [key: string]: Json };
    switch (keys[0]) {
      case "$repeatString":
        return String(spec.value).repeat(Number(spec.count));
      case "$repeatItems":
        return Array.from({ length: Number(spec.count) }, () => expandCaseData(spec.value as Json));
      case "$repeatEntries": {
        const out: { [key: string]: Json } = {};
        for (let i = 0; i < Number(spec.count); i++) {
          out[String(spec.key).replaceAll("{i}", String(i))] = expandCaseData(spec.value as Json);
        }
        return out;
      }
    }
  }
  const out: { [key: string]: Json } = {};
  for (const key of keys) out[key] = expandCaseData(value[key] as Json);
  return out;
}
