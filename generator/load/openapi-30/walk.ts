/**
 * Where the Schema Objects of an OpenAPI 3.0 document are: under
 * `components.schemas`, a parameter's or header's `schema`, a media type's
 * `schema` (and this project's `x-item-schema`), and inside a schema under
 * its subschema keywords. Only those are rewritten: `example` means one
 * thing in a schema and another in a Parameter or Media Type Object.
 * Reference Objects outside schemas are not followed (what they point at is
 * visited where it is). Tolerant: a member of the wrong shape is skipped,
 * the meta-schema reports it later.
 * https://spec.openapis.org/oas/v3.0.3#schema-object
 */
import { isPlainObject, type Pointer } from "../json-pointer.js";

export interface SchemaSite {
  readonly path: Pointer;
  readonly schema: Record<string, unknown>;
  /** The media type when the schema is a request or response body's (or a parameter's `content`) top-level schema. */
  readonly media?: string;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];

/** Keywords whose value is one subschema. */
const ONE = ["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "x-item-schema"];
/** Keywords whose value is a list of subschemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords whose value maps names to subschemas. */
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/**
 * Calls `visit` on every Schema Object of a 3.0 document, children before
 * their parent (so a rewrite of the parent sees its children done and the
 * paths it records are those of the document as written).
 */
export function visitSchemas(document: unknown, visit: (site: SchemaSite) => void): void {
  if (!isPlainObject(document)) return;
  const seen = new Set<object>();
  const path: string[] = [];
  const at = <T>(segment: string, go: () => T): T => {
    path.push(segment);
    try {
      return go();
    } finally {
      path.pop();
    }
  };
  const entries = (value: unknown, each: (name: string, item: unknown) => void): void => {
    if (isPlainObject(value)) for (const [name, item] of Object.entries(value)) at(name, () => each(name, item));
  };

  const schema = (value: unknown, media?: string): void => {
    if (!isPlainObject(value) || seen.has(value)) return;
    seen.add(value); // a YAML alias shares one object between places: rewritten once
    for (const keyword of ONE) if (Object.hasOwn(value, keyword)) at(keyword, () => schema(value[keyword]));
    for (const keyword of LIST) {
      const list = value[keyword];
      if (Array.isArray(list)) at(keyword, () => list.forEach((item, i) => at(String(i), () => schema(item))));
    }
    // `items: [...]` (a tuple, draft-04) is no 3.0, but its members are schemas all the same.
    if (Array.isArray(value.items)) at("items", () => (value.items as unknown[]).forEach((item, i) => at(String(i), () => schema(item))));
    for (const keyword of MAP) at(keyword, () => entries(value[keyword], (_name, item) => schema(item)));
    visit({ path: [...path], schema: value, ...(media !== undefined && { media }) });
  };
  const content = (value: unknown): void =>
    entries(value, (media, item) => {
      if (!isPlainObject(item)) return;
      at("schema", () => schema(item.schema, media));
      at("x-item-schema", () => schema(item["x-item-schema"]));
      at("encoding", () => entries(item.encoding, (_name, encoding) => isPlainObject(encoding) && at("headers", () => entries(encoding.headers, (_n, h) => parameter(h)))));
    });
  const parameter = (value: unknown): void => {
    if (!isPlainObject(value) || typeof value.$ref === "string") return;
    at("schema", () => schema(value.schema));
    at("content", () => content(value.content));
  };
  const body = (value: unknown): void => {
    if (!isPlainObject(value) || typeof value.$ref === "string") return;
    at("content", () => content(value.content));
    at("headers", () => entries(value.headers, (_name, header) => parameter(header)));
  };
  const pathItem = (value: unknown): void => {
    if (!isPlainObject(value)) return;
    at("parameters", () => list(value.parameters, parameter));
    for (const method of METHODS) at(method, () => operation(value[method]));
  };
  const list = (value: unknown, each: (item: unknown) => void): void => {
    if (Array.isArray(value)) value.forEach((item, i) => at(String(i), () => each(item)));
  };
  const callbacks = (value: unknown): void => entries(value, (_name, callback) => isPlainObject(callback) && typeof callback.$ref !== "string" && entries(callback, (_expression, item) => pathItem(item)));
  const operation = (value: unknown): void => {
    if (!isPlainObject(value)) return;
    at("parameters", () => list(value.parameters, parameter));
    at("requestBody", () => body(value.requestBody));
    at("responses", () => entries(value.responses, (_status, response) => body(response)));
    at("callbacks", () => callbacks(value.callbacks));
  };

  at("paths", () => entries(document.paths, (_path, item) => pathItem(item)));
  at("webhooks", () => entries(document.webhooks, (_name, item) => pathItem(item)));
  const components = document.components;
  if (isPlainObject(components)) {
    at("components", () => {
      at("schemas", () => entries(components.schemas, (_name, item) => schema(item)));
      at("parameters", () => entries(components.parameters, (_name, item) => parameter(item)));
      at("headers", () => entries(components.headers, (_name, item) => parameter(item)));
      at("requestBodies", () => entries(components.requestBodies, (_name, item) => body(item)));
      at("responses", () => entries(components.responses, (_name, item) => body(item)));
      at("callbacks", () => callbacks(components.callbacks));
      at("pathItems", () => entries(components.pathItems, (_name, item) => pathItem(item)));
    });
  }
}
