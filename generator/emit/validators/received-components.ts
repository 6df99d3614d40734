/**
 * The components a client reads: every 2xx JSON response body and the item
 * schema (`x-item-schema`) of every `text/event-stream` response. They get a
 * receive-level build of their validator (`validate<Name>Receive`,
 * ./receive-level.ts): what a client applies to a message it reads, so that
 * a message carrying the fields its type promises is delivered.
 */
import type { OpenAPIObject, ResponseObject } from "openapi3-ts/oas31";
import { streamItemComponent } from "../event-streams.js";
import { componentName, deref, operationsOf } from "../operations.js";

/** Sorted, without duplicates. */
export function receivedComponents(doc: OpenAPIObject): string[] {
  const names = new Set<string>();
  for (const { op } of operationsOf(doc)) {
    const item = streamItemComponent(doc, op.responses as Record<string, unknown>);
    if (item !== undefined) names.add(item);
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      if (!/^2(\d\d|XX)$/.test(status)) continue;
      const content = deref<ResponseObject>(doc, response as ResponseObject).content ?? {};
      for (const [mediaType, media] of Object.entries(content)) {
        const name = /[/+]json$/.test(mediaType) ? componentName(media.schema) : undefined;
        if (name !== undefined) names.add(name);
      }
    }
  }
  return [...names].sort();
}
