/**
 * The components that operations take as their JSON request body. Their
 * validators get a second, all-errors build (`validate<Name>AllErrors`): a
 * client rejecting a request body should list every problem at once, while
 * every other check wants the stop-at-first-error speed.
 */
import type { OpenAPIObject } from "openapi3-ts/oas31";

const COMPONENT = "#/components/schemas/";

/** Sorted, without duplicates. Throws when a body schema is not a component `$ref`. */
export function requestBodyComponents(doc: OpenAPIObject): string[] {
  const names = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      const body = resolve(doc, (op as { requestBody?: unknown } | undefined)?.requestBody);
      if (typeof body !== "object" || body === null) continue;
      const schema = (body as { content?: Record<string, { schema?: { $ref?: unknown } }> }).content?.["application/json"]?.schema;
      if (schema === undefined) continue;
      const ref = schema.$ref;
      if (typeof ref !== "string" || !ref.startsWith(COMPONENT)) {
        throw new Error(`${method.toUpperCase()} ${path}: the JSON request body must be a $ref to #/components/schemas/… (its validator is named after it).`);
      }
      names.add(ref.slice(COMPONENT.length));
    }
  }
  return [...names].sort();
}

/** Follows `$ref`s between components (e.g. `#/components/requestBodies/X`). */
function resolve(doc: OpenAPIObject, value: unknown): unknown {
  let cur = value;
  for (let hops = 0; hops < 16; hops++) {
    const ref = (cur as { $ref?: unknown } | undefined)?.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/")) return cur;
    cur = ref
      .slice(2)
      .split("/")
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  }
  throw new Error(`A $ref chain from a request body is longer than 16 hops.`);
}
