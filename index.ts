/**
 * `@mantyx/wire-types`, the package's main entry: the generated MANTYX
 * client and event streams (layer 2), the runtime they stand on (layer 1:
 * the HTTP core, the SSE decoder, the typed event layer), the MANTYX
 * helpers (layer 3: runAgent, ToolRegistry, …) and every protocol type.
 * Validators are a separate entry (`@mantyx/wire-types/validators`) so that
 * importing the client never pulls them all in; bundlers drop what is not
 * used from here (`"sideEffects": false`). Generated code imports the
 * runtime through `@mantyx/wire-types/codegen/v1`, not through this entry.
 */
export * from "./generated/client.js";
export * from "./generated/events.js";
export * from "./runtime/client/index.js";
export * from "./runtime/sse/index.js";
export * from "./runtime/events/index.js";
export * from "./mantyx/index.js";
export type * from "./generated/types.js";
