/**
 * TypeScript type expressions for the schemas the client meets outside
 * `components.schemas` (an inline request body, a parameter, an inline
 * response, a stream's item): the types emitter's converter, with component
 * references written `T.Name` (the client imports types.ts as `T`).
 *
 * The result is a `PrintedType`: text made by the type printer from a type
 * tree (strings from the schema only ever as JSON literals), which the
 * template's `type` helper accepts and nothing else.
 */
import { formatPointer, isPlainObject } from "../../load/json-pointer.js";
import type { LoadedSchema } from "../../model.js";
import type { ComponentNames } from "../component-names.js";
import { SchemaConverter } from "../types/schema-to-ts.js";
import { printType, type TsType } from "../types/ts-type.js";

/** A type expression printed from a type tree (see the file comment). */
export interface PrintedType {
  readonly printed: string;
}

export const printed = (text: string): PrintedType => ({ printed: text });

/** A schema of the client's that became (partly) `unknown`: its pointer and why. */
export interface ClientDegradation {
  readonly pointer: string;
  readonly reason: string;
}

export class InlineTypes {
  private readonly converter: SchemaConverter;
  readonly degraded: ClientDegradation[] = [];
  private current: readonly string[] = [];

  constructor(model: LoadedSchema, names: ComponentNames) {
    const typeNames = new Map(Object.keys(model.schemas).map((name) => [name, names.type(name)]));
    this.converter = new SchemaConverter({
      document: model.document,
      typeNames,
      // An inline open variant's tag has no named brand here: a plain string.
      brand: () => "string",
      degraded: (site, reason) => {
        const pointer = formatPointer([...this.current, ...site.path]);
        if (!this.degraded.some((d) => d.pointer === pointer)) this.degraded.push({ pointer, reason });
      },
    });
  }

  /** The type of `schema`, which sits at `at` (pointer segments) in the document. */
  typeOf(schema: unknown, at: readonly string[], options: { decodeJsonContent?: boolean } = {}): PrintedType {
    this.current = at;
    const input = options.decodeJsonContent ? decodeJsonContent(schema) : schema;
    return printed(printType(qualify(this.converter.convert(input, { component: "", path: [] })), "  "));
  }
}

/** Component references as `T.Name`. */
function qualify(type: TsType): TsType {
  switch (type.kind) {
    case "reference":
      return type.name === "string" ? type : { kind: "reference", name: `T.${type.name}` };
    case "array":
      return { kind: "array", element: qualify(type.element) };
    case "tuple":
      return { kind: "tuple", elements: type.elements.map(qualify), required: type.required };
    case "union":
    case "intersection":
      return { kind: type.kind, members: type.members.map(qualify) };
    case "object":
      return {
        kind: "object",
        properties: type.properties.map((property) => ({ ...property, type: qualify(property.type) })),
        ...(type.index === undefined ? {} : { index: qualify(type.index) }),
      };
    default:
      return type;
  }
}

const JSON_MEDIA = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * The schema of a value after its JSON-encoded strings are decoded: a
 * string schema with `contentMediaType: application/json` and a
 * `contentSchema` (JSON Schema 2020-12 §8) becomes that `contentSchema`.
 * OpenAPI 3.2 describes an SSE event's JSON `data` this way; the client
 * decodes it, so the item type is the decoded one.
 */
export function decodeJsonContent(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(decodeJsonContent);
  if (!isPlainObject(schema)) return schema;
  if (
    typeof schema.contentMediaType === "string" &&
    JSON_MEDIA.test(schema.contentMediaType) &&
    schema.contentSchema !== undefined
  ) {
    return decodeJsonContent(schema.contentSchema);
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === "properties" && isPlainObject(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeJsonContent(v)]))
        : ["examples", "example", "default", "const", "enum"].includes(key)
          ? value
          : decodeJsonContent(value);
  }
  return out;
}
