/**
 * Reading the operations of the bundled OpenAPI document: the emitters that
 * work per operation (client, validators' request bodies) walk them and
 * follow their internal `$ref`s through these, so both see the same
 * operations, in the same order, resolved the same way.
 */
import type {
  OpenAPIObject,
  OperationObject,
  PathItemObject,
  ReferenceObject,
  RequestBodyObject,
} from "openapi3-ts/oas31";
import { getAtPointer, parseRefFragment, type Pointer } from "../load/json-pointer.js";
import { pathItemsOf } from "../load/path-items.js";
import { isJsonMediaType } from "@mantyx/wire-types/codegen/v1";

const COMPONENT = "#/components/schemas/";
/** The HTTP methods of a Path Item (OpenAPI 3.1; `query` is 3.2's), in the order operations are listed. */
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"] as const;

export interface OperationEntry {
  path: string;
  /** Lower case: one of the fixed methods, or an OpenAPI 3.2 `additionalOperations` key lower-cased (for names). */
  method: string;
  /** The method as sent: the fixed ones upper-cased, an `additionalOperations` key exactly as written (`COPY`). */
  httpMethod: string;
  /** The Path Item, its `$ref` followed (load/path-items.ts). */
  item: PathItemObject;
  op: OperationObject;
  /** Where the operation object is in the bundled document (under `components.pathItems` when the item is a reference). */
  at: Pointer;
  /** Where the item's own fields are (its `parameters`, for instance). */
  itemAt: Pointer;
}

/** Every operation, paths sorted, methods in a fixed order; a Path Item `$ref` is followed. */
export function operationsOf(doc: OpenAPIObject): OperationEntry[] {
  const out: OperationEntry[] = [];
  const items = pathItemsOf(doc).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const { path, item, pointerOf } of items) {
    const itemAt = pointerOf("parameters").slice(0, -1);
    for (const method of METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (op !== undefined)
        out.push({
          path,
          method,
          httpMethod: method.toUpperCase(),
          item: item as PathItemObject,
          op,
          at: pointerOf(method),
          itemAt,
        });
    }
    // OpenAPI 3.2: other methods by their name on the wire, in name order.
    const more = item.additionalOperations;
    if (more !== null && typeof more === "object") {
      for (const name of Object.keys(more).sort()) {
        const op = (more as Record<string, OperationObject>)[name]!;
        out.push({
          path,
          method: name.toLowerCase(),
          httpMethod: name,
          item: item as PathItemObject,
          op,
          at: [...pointerOf("additionalOperations"), name],
          itemAt,
        });
      }
    }
  }
  return out;
}

export function isRef(v: unknown): v is ReferenceObject {
  return typeof v === "object" && v !== null && typeof (v as ReferenceObject).$ref === "string";
}

/** `v`, or what its chain of internal `$ref`s points at in `doc`. */
export function deref<T>(doc: OpenAPIObject, v: T | ReferenceObject): T {
  let cur: unknown = v;
  for (let i = 0; i < 16 && isRef(cur); i++) {
    const segments = parseRefFragment(cur.$ref);
    cur = segments === undefined ? undefined : getAtPointer(doc, segments);
    if (cur === undefined) throw new Error(`Unresolvable $ref ${(v as ReferenceObject).$ref} in an operation.`);
  }
  return cur as T;
}

/**
 * The component a schema `$ref`s (`#/components/schemas/<Name>`, the name
 * as written in the document: its type name is `typeName(name)`), or
 * undefined for an inline schema.
 */
export function componentName(schema: unknown): string | undefined {
  if (!isRef(schema) || !schema.$ref.startsWith(COMPONENT)) return undefined;
  const segments = parseRefFragment(schema.$ref);
  return segments?.length === 3 ? segments[2] : undefined;
}

/** A JSON media type (`application/json`, `application/problem+json`, `application/vnd.api+json; charset=utf-8`): the runtime's rule, which the client encodes bodies by. */
export { isJsonMediaType };

/** The first JSON media type of a `content` map (in the document's order), or undefined. */
export function jsonMediaTypeOf(content: Record<string, unknown> | undefined): string | undefined {
  return Object.keys(content ?? {}).find(isJsonMediaType);
}

/**
 * The component an operation takes as its JSON request body, or undefined
 * without a JSON body or when the body's schema is inline (the client
 * types it inline and sends it without a validator).
 */
export function requestBodyComponent(doc: OpenAPIObject, op: OperationObject): string | undefined {
  if (op.requestBody === undefined) return undefined;
  const content = deref<RequestBodyObject>(doc, op.requestBody).content;
  const media = jsonMediaTypeOf(content);
  return media === undefined ? undefined : componentName(content?.[media]?.schema);
}
