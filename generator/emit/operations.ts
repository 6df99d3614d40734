/**
 * Reading the operations of the bundled OpenAPI document: the emitters that
 * work per operation (client, validators' request bodies) walk them and
 * follow their internal `$ref`s through these, so both see the same
 * operations, in the same order, resolved the same way.
 */
import { EmitError } from "../errors.js";
import type { OpenAPIObject, OperationObject, PathItemObject, ReferenceObject, RequestBodyObject } from "openapi3-ts/oas31";
import { getAtPointer, parseRefFragment } from "../load/json-pointer.js";
import { IDENTIFIER } from "./identifier.js";

const COMPONENT = "#/components/schemas/";
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

export interface OperationEntry {
  path: string;
  method: (typeof METHODS)[number];
  item: PathItemObject;
  op: OperationObject;
}

/** Every operation, paths sorted, methods in a fixed order. */
export function operationsOf(doc: OpenAPIObject): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const path of Object.keys(doc.paths ?? {}).sort()) {
    const item = doc.paths![path] as PathItemObject;
    for (const method of METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (op !== undefined) out.push({ path, method, item, op });
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

/** The component a schema `$ref`s (`#/components/schemas/<Name>`), or undefined for an inline schema. */
export function componentName(schema: unknown): string | undefined {
  if (!isRef(schema) || !schema.$ref.startsWith(COMPONENT)) return undefined;
  const name = schema.$ref.slice(COMPONENT.length);
  if (!IDENTIFIER.test(name)) throw new Error(`Component ${name} is not an identifier; rename it (CONVENTIONS.md: PascalCase).`);
  return name;
}

/**
 * The component an operation takes as its JSON request body, or undefined
 * without a body. `where` names the operation in the error for a body that
 * is not a component `$ref` (its type and validators are named after it).
 */
export function requestBodyComponent(doc: OpenAPIObject, op: OperationObject, where: string, pointer?: string): string | undefined {
  if (op.requestBody === undefined) return undefined;
  const name = componentName(deref<RequestBodyObject>(doc, op.requestBody).content?.["application/json"]?.schema);
  if (name === undefined) {
    throw new EmitError(
      "unsupported-schema",
      "operations",
      `${where}: the JSON request body is not a $ref to #/components/schemas/… (its type and validators are named after the component).`,
      "Move the body schema under components.schemas (PascalCase name) and write `schema: { $ref: \"#/components/schemas/Name\" }` in the operation.",
      pointer,
    );
  }
  return name;
}
