/**
 * `x-terminal: true` on the event variants that end a run (`result`, `error`,
 * `cancelled`) in schema/openapi.yaml. Not in CONVENTIONS.md's table; an
 * annotation for the stream client, never asserted.
 */
import type { KeywordDefinition } from "ajv/dist/2020.js";

export const xTerminal: KeywordDefinition = {
  keyword: "x-terminal",
  schemaType: "boolean",
};
