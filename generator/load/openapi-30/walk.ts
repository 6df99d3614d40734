/**
 * Where the Schema Objects of an OpenAPI 3.0 document are: under
 * `components.schemas`, a parameter's or header's `schema`, a media type's
 * `schema` (and this project's `x-item-schema`), and inside a schema under
 * its subschema keywords. Only those are rewritten: `example` means one
 * thing in a schema and another in a Parameter or Media Type Object.
 * Reference Objects outside schemas are not followed (what they point at is
 * visited where it is). Tolerant: a member of the wrong shape is skipped,
 * the meta-schema reports it later. One pass, no copies: GitHub's 13 MB
 * description has some 100,000 schemas.
 * https://spec.openapis.org/oas/v3.0.3#schema-object
 */
import { isPlainObject, type Pointer } from "../json-pointer.js";

export interface SchemaSite {
  /** The schema's path; shared and changing as the walk goes on: copy it to keep it. */
  readonly path: Pointer;
  readonly schema: Record<string, unknown>;
  /** The media type when the schema is a request or response body's (or a parameter's `content`) top-level schema. */
  readonly media: string | undefined;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];

/** Keywords whose value is one subschema (`items` may also be a draft-04 tuple: a list). */
const ONE = [
  "items",
  "additionalProperties",
  "not",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
  "x-item-schema",
];
/** Keywords whose value is a list of subschemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/** Keywords whose value maps names to subschemas. */
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

type Visit = (site: SchemaSite) => void;
/** Called with the path of a `schema: null` (of a media type or parameter) before it is removed. */
type NullSchema = (path: Pointer) => void;

/**
 * Calls `visit` on every Schema Object of a 3.0 document, children before
 * their parent (so a rewrite of the parent sees its children done and the
 * paths it records are those of the document as written).
 */
export function visitSchemas(document: unknown, visit: Visit, nullSchema: NullSchema = () => {}): void {
  if (!isPlainObject(document)) return;
  new Walk(visit, nullSchema).document(document);
}

class Walk {
  private readonly path: string[] = [];
  /** A YAML alias shares one object between places: rewritten once. */
  private readonly seen = new Set<object>();

  constructor(
    private readonly visit: Visit,
    private readonly nullSchema: NullSchema,
  ) {}

  document(document: Record<string, unknown>): void {
    this.each(document, "paths", (item) => this.pathItem(item));
    this.each(document, "webhooks", (item) => this.pathItem(item));
    const components = document.components;
    if (!isPlainObject(components)) return;
    this.path.push("components");
    this.each(components, "schemas", (item) => this.schema(item, undefined));
    this.each(components, "parameters", (item) => this.parameter(item));
    this.each(components, "headers", (item) => this.parameter(item));
    this.each(components, "requestBodies", (item) => this.body(item));
    this.each(components, "responses", (item) => this.body(item));
    this.each(components, "callbacks", (item) => this.callback(item));
    this.each(components, "pathItems", (item) => this.pathItem(item));
    this.path.pop();
  }

  /** `go` on each member of the map at `holder[key]`, with the path at it. */
  private each(holder: Record<string, unknown>, key: string, go: (item: unknown, name: string) => void): void {
    const map = holder[key];
    if (!isPlainObject(map)) return;
    this.path.push(key);
    for (const name of Object.keys(map)) {
      this.path.push(name);
      go(map[name], name);
      this.path.pop();
    }
    this.path.pop();
  }

  /** `go` on each item of the list at `holder[key]`. */
  private list(holder: Record<string, unknown>, key: string, go: (item: unknown) => void): void {
    const list = holder[key];
    if (!Array.isArray(list)) return;
    this.path.push(key);
    for (let i = 0; i < list.length; i++) {
      this.path.push(String(i));
      go(list[i]);
      this.path.pop();
    }
    this.path.pop();
  }

  /** `go` on `holder[key]`. */
  private one(holder: Record<string, unknown>, key: string, go: (item: unknown) => void): void {
    if (!Object.hasOwn(holder, key)) return;
    this.path.push(key);
    go(holder[key]);
    this.path.pop();
  }

  private schema(value: unknown, media: string | undefined): void {
    if (!isPlainObject(value) || this.seen.has(value)) return;
    this.seen.add(value);
    const sub = (item: unknown): void => this.schema(item, undefined);
    for (const keyword of ONE) this.one(value, keyword, sub);
    for (const keyword of LIST) this.list(value, keyword, sub);
    for (const keyword of MAP) this.each(value, keyword, sub);
    this.visit({ path: this.path, schema: value, media });
  }

  /** `schema: null` (seen in the wild; openapi-typescript reads it as no schema): removed, as if not written. */
  private dropNull(holder: Record<string, unknown>): void {
    if (holder.schema !== null) return;
    this.nullSchema([...this.path, "schema"]);
    delete holder.schema;
  }

  private content(holder: Record<string, unknown>): void {
    this.each(holder, "content", (item, media) => {
      if (!isPlainObject(item)) return;
      this.dropNull(item);
      this.one(item, "schema", (schema) => this.schema(schema, media));
      this.one(item, "x-item-schema", (schema) => this.schema(schema, undefined));
      this.each(
        item,
        "encoding",
        (encoding) => isPlainObject(encoding) && this.each(encoding, "headers", (header) => this.parameter(header)),
      );
    });
  }

  private parameter(value: unknown): void {
    if (!isPlainObject(value) || typeof value.$ref === "string") return;
    this.dropNull(value);
    this.one(value, "schema", (schema) => this.schema(schema, undefined));
    this.content(value);
  }

  private body(value: unknown): void {
    if (!isPlainObject(value) || typeof value.$ref === "string") return;
    this.content(value);
    this.each(value, "headers", (header) => this.parameter(header));
  }

  private pathItem(value: unknown): void {
    if (!isPlainObject(value)) return;
    this.list(value, "parameters", (parameter) => this.parameter(parameter));
    for (const method of METHODS) this.one(value, method, (operation) => this.operation(operation));
  }

  private callback(value: unknown): void {
    if (isPlainObject(value) && typeof value.$ref !== "string")
      for (const expression of Object.keys(value)) this.withSegment(expression, () => this.pathItem(value[expression]));
  }

  private withSegment(segment: string, go: () => void): void {
    this.path.push(segment);
    go();
    this.path.pop();
  }

  private operation(value: unknown): void {
    if (!isPlainObject(value)) return;
    this.list(value, "parameters", (parameter) => this.parameter(parameter));
    this.one(value, "requestBody", (body) => this.body(body));
    this.each(value, "responses", (response) => this.body(response));
    this.each(value, "callbacks", (callback) => this.callback(callback));
  }
}
