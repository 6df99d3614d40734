/**
 * ajv's URI resolver (fast-uri) with its answers remembered. ajv resolves
 * the same few ids again for every `$ref` and subschema it compiles (the
 * document's `$id` against `#/components/schemas/...`): about a tenth of
 * compiling the validators went to parsing and serializing those strings.
 * Pure functions of their arguments, so remembering changes no answer; the
 * resolver never reaches generated code (ajv uses it while compiling and in
 * its missing-`$ref` errors only).
 */
import type { Options } from "ajv/dist/2020.js";
import fastUri from "ajv/dist/runtime/uri.js";

type UriResolver = NonNullable<Options["uriResolver"]>;
type UriComponent = ReturnType<UriResolver["parse"]>;

// ajv's runtime module is CommonJS with `exports.default` (the default import is the module object).
const uri = (fastUri as unknown as { default: UriResolver & { code: string } }).default;

const parsed = new Map<string, UriComponent>();
const resolved = new Map<string, string>();
const serialized = new WeakMap<UriComponent, string>();

export const rememberingUriResolver: UriResolver & { code: string } = {
  parse(value) {
    let component = parsed.get(value);
    if (component === undefined) {
      component = uri.parse(value);
      // Shared between callers: frozen, so that none can change another's answer.
      parsed.set(value, Object.freeze(component));
    }
    return component;
  },
  resolve(base, path) {
    const key = `${base}\u0000${path}`;
    let result = resolved.get(key);
    if (result === undefined) resolved.set(key, (result = uri.resolve(base, path)));
    return result;
  },
  serialize(component) {
    let result = serialized.get(component);
    if (result === undefined) {
      result = uri.serialize(component);
      serialized.set(component, result);
    }
    return result;
  },
  // What ajv would write, were the resolver ever needed in standalone code: fast-uri itself.
  code: uri.code,
};
