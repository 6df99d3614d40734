/**
 * JSON-lines decoder (`application/jsonl`, `application/x-ndjson`): public
 * entry point, explicit exports only. Protocol-neutral.
 */
export { DEFAULT_MAX_LINE_BYTES, parseJsonLines, type JsonLinesOptions, type JsonLinesSource } from "./decode.js";
export { isJsonLinesError, JsonLinesError, type JsonLinesErrorType } from "./errors.js";
