/**
 * Server-Sent-Events decoder: public entry point (explicit exports only, so
 * the public surface is exactly this list).
 *
 * Three shapes over one core: parseSse (an async iterable of messages),
 * parseSseBatches (one array per input chunk that completed messages: one
 * await per chunk) and createSseParser (push style, the caller owns the
 * loop). Input is bytes only (`Uint8Array` chunks, e.g. `fetch`
 * `response.body`): decoding is part of the spec. Uses only standard web
 * APIs (TextDecoder, ReadableStream, AbortSignal, typed arrays).
 * Protocol-neutral: nothing here knows what the `data` means.
 */
export { DEFAULT_MAX_EVENT_BYTES, type SseMessage, type SseParserCallbacks } from "./fields.js";
export { createSseParser, type SseParser } from "./parser.js";
export { parseSse, parseSseBatches, type SseParseOptions, type SseSource } from "./iterate.js";
export { isSseParseError, SseParseError, type SseParseErrorType } from "./errors.js";
