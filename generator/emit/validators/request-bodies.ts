/**
 * The components that operations take as their JSON request body. Their
 * validators get a second, all-errors build (`validate<Name>AllErrors`): a
 * client rejecting a request body should list every problem at once, while
 * every other check wants the stop-at-first-error speed.
 */
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { operationsOf, requestBodyComponent } from "../operations.js";

/** Sorted, without duplicates. A body whose schema is inline has no component, and so no all-errors build. */
export function requestBodyComponents(doc: OpenAPIObject): string[] {
  const names = new Set<string>();
  for (const { op } of operationsOf(doc)) {
    const name = requestBodyComponent(doc, op);
    if (name !== undefined) names.add(name);
  }
  return [...names].sort();
}
