/**
 * The components that operations take as their JSON request body. Their
 * validators get a second, all-errors build (`validate<Name>AllErrors`): a
 * client rejecting a request body should list every problem at once, while
 * every other check wants the stop-at-first-error speed.
 */
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { formatPointer } from "../../load/json-pointer.js";
import { operationsOf, requestBodyComponent } from "../operations.js";

/** Sorted, without duplicates. Throws when a body schema is not a component `$ref`. */
export function requestBodyComponents(doc: OpenAPIObject): string[] {
  const names = new Set<string>();
  for (const { path, method, op } of operationsOf(doc)) {
    const name = requestBodyComponent(doc, op, `${method.toUpperCase()} ${path}`, formatPointer(["paths", path, method, "requestBody", "content", "application/json", "schema"]));
    if (name !== undefined) names.add(name);
  }
  return [...names].sort();
}
