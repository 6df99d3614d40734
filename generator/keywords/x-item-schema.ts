/**
 * `x-item-schema` (schema/CONVENTIONS.md, "Vendor keywords"): on the stream
 * route's `text/event-stream` media type, the schema of each SSE event's
 * `data` JSON (OpenAPI 3.2's `itemSchema`). An annotation: the SSE decoder
 * validates each event with the validator of the schema it names.
 */
import type { KeywordDefinition } from "ajv/dist/2020.js";

export const xItemSchema: KeywordDefinition = {
  keyword: "x-item-schema",
  schemaType: ["object", "boolean"],
};
