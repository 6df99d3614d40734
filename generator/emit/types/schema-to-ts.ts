/**
 * JSON Schema (the CONVENTIONS.md subset) -> TsType.
 *
 * A schema is the intersection of what its keywords say, so the converter
 * collects one TsType per keyword group and intersects them:
 *   $ref                      -> the component's type name
 *   const / enum / type       -> literals, primitives, arrays, objects
 *   oneOf / anyOf             -> union
 *   allOf                     -> intersection
 *   if + then + else          -> Then | Else ("exactly one of two shapes")
 * Assertions TypeScript cannot express (pattern, minimum, not, ...) are
 * dropped: the type may accept more than the schema, never less.
 * Boolean subschemas: `true` -> `unknown`, `false` -> `never` (so an
 * optional property whose schema is `false` is `prop?: never`, `items: false`
 * is `never[]`, `additionalProperties: false` adds no index signature and
 * `propertyNames: false` an index signature of `never`).
 */
import { isPlainObject, parseRefFragment, getAtPointer } from "../../load/json-pointer.js";
import { docLines } from "./jsdoc.js";
import {
  NEVER,
  UNKNOWN,
  array,
  intersection,
  keyword,
  literal,
  object,
  reference,
  tuple,
  union,
  type TsProperty,
  type TsType,
} from "./ts-type.js";

/** Where a schema sits: the component it belongs to and the keyword path inside it. */
export interface Site {
  readonly component: string;
  readonly path: readonly string[];
}

export interface ConverterOptions {
  /** The bundled document, for refs that point inside a component. */
  readonly document: unknown;
  /** Component name -> TypeScript type name. */
  readonly typeNames: ReadonlyMap<string, string>;
  /**
   * A string schema that excludes listed values (`not: { enum: [...] }`), the
   * tag of an open variant: returns the name of the branded type to use.
   */
  readonly brand: (site: Site, excluded: readonly string[]) => string;
  /**
   * A schema the converter cannot represent became `unknown` at `site`
   * (a `$ref` outside the document, a `$ref` cycle through the middle of a
   * schema, `$dynamicRef`): reported as a warning, the run goes on.
   */
  readonly degraded?: (site: Site, reason: string) => void;
}

const OBJECT_KEYWORDS = [
  "properties",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "required",
  "minProperties",
  "maxProperties",
];

export class SchemaConverter {
  private readonly inlining = new Set<string>();

  constructor(private readonly options: ConverterOptions) {}

  convert(schema: unknown, site: Site): TsType {
    if (schema === false) return NEVER;
    // A strict-level rule only (`x-strict-only`, `true` or `{ section }`, schema/CONVENTIONS.md): the types follow what a client reads, where it is not asserted.
    if (!isPlainObject(schema) || schema["x-strict-only"] === true || isPlainObject(schema["x-strict-only"]))
      return UNKNOWN;
    const parts: TsType[] = [];
    if (typeof schema.$ref === "string") parts.push(this.refType(schema.$ref, site));
    if (typeof schema.$dynamicRef === "string") {
      // Its static binding: the `$dynamicAnchor` of that name in the same component (JSON Schema 2020-12 §8.2.3.2,
      // when no outer scope rebinds it). A rebinding by a schema that uses the component is not followed: the type is wider.
      const anchor = this.dynamicAnchor(site.component, schema.$dynamicRef);
      if (anchor !== undefined) parts.push(this.convert(anchor, site));
      else
        this.options.degraded?.(
          site,
          `\`$dynamicRef: ${schema.$dynamicRef}\` names no \`$dynamicAnchor\` of its component; its part of the type is \`unknown\``,
        );
    }
    const combinators: TsType[] = [];
    if (Array.isArray(schema.oneOf))
      combinators.push(union(schema.oneOf.map((branch, i) => this.convert(branch, child(site, "oneOf", String(i))))));
    if (Array.isArray(schema.anyOf))
      combinators.push(union(schema.anyOf.map((branch, i) => this.convert(branch, child(site, "anyOf", String(i))))));
    if (Array.isArray(schema.allOf))
      combinators.push(...schema.allOf.map((branch, i) => this.convert(branch, child(site, "allOf", String(i)))));
    if (schema.then !== undefined && schema.else !== undefined) {
      combinators.push(
        union([this.convert(schema.then, child(site, "then")), this.convert(schema.else, child(site, "else"))]),
      );
    }
    // `type: object` next to a union of object shapes adds nothing but noise.
    const bareObject =
      schema.type === "object" &&
      !OBJECT_KEYWORDS.some((k) => k in schema && !(k === "additionalProperties" && schema[k] === true));
    if (!(bareObject && (combinators.length > 0 || parts.length > 0))) {
      const value = this.valueType(schema, site);
      if (value) parts.push(value);
    }
    return intersection([...parts, ...combinators]);
  }

  /** `const`, `enum` or `type` (given or implied by the keywords present). */
  private valueType(schema: Record<string, unknown>, site: Site): TsType | undefined {
    if ("const" in schema) return literalOf(schema.const);
    if (Array.isArray(schema.enum)) return union(schema.enum.map(literalOf));
    const types =
      typeof schema.type === "string"
        ? [schema.type]
        : Array.isArray(schema.type)
          ? schema.type.filter((t): t is string => typeof t === "string")
          : OBJECT_KEYWORDS.some((k) => k in schema)
            ? ["object"]
            : "items" in schema || "prefixItems" in schema
              ? ["array"]
              : [];
    if (types.length === 0) return undefined;
    return union(types.map((type) => this.typeFor(type, schema, site)));
  }

  private typeFor(type: string, schema: Record<string, unknown>, site: Site): TsType {
    switch (type) {
      case "string": {
        const excluded = excludedStrings(schema.not, this.options.document);
        if (excluded) return reference(this.options.brand(site, excluded));
        const known = schema["x-known-values"];
        if (Array.isArray(known) && known.length > 0) {
          // `string & {}` keeps the literals from collapsing into `string`, so editors still offer them.
          return union([
            ...known.filter((v): v is string => typeof v === "string").map(literal),
            intersection([keyword("string"), object([])]),
          ]);
        }
        return keyword("string");
      }
      case "number":
      case "integer":
        return keyword("number");
      case "boolean":
        return keyword("boolean");
      case "null":
        return keyword("null");
      case "array":
        return this.arrayType(schema, site);
      case "object":
        return this.objectType(schema, site);
      default:
        return UNKNOWN;
    }
  }

  private arrayType(schema: Record<string, unknown>, site: Site): TsType {
    const items = "items" in schema ? this.convert(schema.items, child(site, "items")) : UNKNOWN;
    if (!Array.isArray(schema.prefixItems)) return array(items);
    const prefix = schema.prefixItems.map((item, i) => this.convert(item, child(site, "prefixItems", String(i))));
    // With `items: false` a tuple; its elements past `minItems` may be missing.
    const required = typeof schema.minItems === "number" ? Math.min(schema.minItems, prefix.length) : 0;
    return schema.items === false ? tuple(prefix, required) : array(union([...prefix, items]));
  }

  private objectType(schema: Record<string, unknown>, site: Site): TsType {
    const declared = isPlainObject(schema.properties) ? Object.entries(schema.properties) : [];
    const required = new Set(
      Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [],
    );
    const properties: TsProperty[] = declared.map(([name, sub]) => ({
      name,
      optional: !required.has(name),
      type: this.convert(sub, child(site, "properties", name)),
      doc: isPlainObject(sub) ? docLines(sub) : [],
    }));
    for (const name of required) {
      if (!declared.some(([declaredName]) => declaredName === name))
        properties.push({ name, optional: false, type: UNKNOWN, doc: [] });
    }
    if (schema.propertyNames === false) {
      // No key is allowed, so no property can be present: `{ [key: string]: never }`, or nothing at all when one is required.
      if (required.size > 0) return NEVER;
      return object(
        properties.map((property) => ({ ...property, type: NEVER })),
        NEVER,
      );
    }
    const patterns = isPlainObject(schema.patternProperties)
      ? Object.entries(schema.patternProperties).map(([pattern, sub]) =>
          this.convert(sub, child(site, "patternProperties", pattern)),
        )
      : [];
    // An index signature must admit every declared property's type too.
    const declaredTypes = properties.some((p) => p.optional)
      ? [...properties.map((p) => p.type), keyword("undefined")]
      : properties.map((p) => p.type);
    const additional = schema.additionalProperties;
    // Only `required` (a constraint inside a union branch): no shape of its own to close or open.
    const constraintOnly =
      schema.type === undefined &&
      !["properties", "additionalProperties", "patternProperties", "propertyNames"].some((k) => k in schema);
    let index: TsType | undefined;
    if (additional === false) {
      index =
        patterns.length > 0 ? union([...patterns, ...declaredTypes]) : properties.length === 0 ? NEVER : undefined;
    } else if (additional === undefined || additional === true) {
      index = constraintOnly ? undefined : UNKNOWN;
    } else {
      const value = this.convert(additional, child(site, "additionalProperties"));
      index = union([value, ...patterns, ...declaredTypes]);
    }
    return object(properties, index);
  }

  /** The schema carrying `$dynamicAnchor: <name>` (from `#<name>`) inside component `component`, if any. */
  private dynamicAnchor(component: string, ref: string): unknown {
    const name = /^#([A-Za-z_][-A-Za-z0-9._]*)$/.exec(ref)?.[1];
    const root = getAtPointer(this.options.document, ["components", "schemas", component]);
    if (name === undefined || !isPlainObject(root)) return undefined;
    const stack: unknown[] = [root];
    for (let seen = 0; stack.length > 0 && seen < 10_000; seen++) {
      const node = stack.pop();
      if (Array.isArray(node)) stack.push(...node);
      else if (isPlainObject(node)) {
        if (node.$dynamicAnchor === name && node !== root) {
          const { $dynamicAnchor: _anchor, ...rest } = node;
          return rest;
        }
        for (const [key, value] of Object.entries(node))
          if (!["examples", "example", "default", "const", "enum"].includes(key)) stack.push(value);
      }
    }
    return undefined;
  }

  private refType(ref: string, site: Site): TsType {
    const segments = parseRefFragment(ref);
    if (segments && segments.length === 3 && segments[0] === "components" && segments[1] === "schemas") {
      const name = this.options.typeNames.get(segments[2]!);
      if (name) return reference(name);
    }
    // A ref into the middle of a schema: inline its type (cycles stop at `unknown`).
    if (!segments) {
      this.options.degraded?.(site, `\`$ref: ${ref}\` does not point into this document; its type is \`unknown\``);
      return UNKNOWN;
    }
    if (this.inlining.has(ref)) {
      this.options.degraded?.(
        site,
        `\`$ref: ${ref}\` refers back into itself through the middle of a schema (not a component); the repeated part is \`unknown\``,
      );
      return UNKNOWN;
    }
    this.inlining.add(ref);
    try {
      return this.convert(getAtPointer(this.options.document, segments), site);
    } finally {
      this.inlining.delete(ref);
    }
  }
}

function child(site: Site, ...path: string[]): Site {
  return { component: site.component, path: [...site.path, ...path] };
}

/** The TypeScript type of one JSON value, as a literal type. */
export function literalOf(value: unknown): TsType {
  if (value === null) return keyword("null");
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return literal(value);
  if (Array.isArray(value)) return tuple(value.map(literalOf));
  if (isPlainObject(value)) {
    return object(
      Object.entries(value).map(([name, item]) => ({ name, optional: false, type: literalOf(item), doc: [] })),
    );
  }
  return UNKNOWN;
}

/** The strings a `not` excludes when it is `{ enum: [strings] }` or `{ const: string }` (through `$ref`s). */
export function excludedStrings(not: unknown, document: unknown, depth = 0): string[] | undefined {
  if (!isPlainObject(not) || depth > 8) return undefined;
  if (typeof not.$ref === "string") {
    const segments = parseRefFragment(not.$ref);
    return segments ? excludedStrings(getAtPointer(document, segments), document, depth + 1) : undefined;
  }
  if (typeof not.const === "string") return [not.const];
  if (Array.isArray(not.enum) && not.enum.length > 0 && not.enum.every((v) => typeof v === "string"))
    return not.enum as string[];
  return undefined;
}
