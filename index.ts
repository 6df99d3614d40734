/**
 * `@mantyx/wire-types`, the package's main entry: the generated client, the
 * runtime it stands on, the SSE decoder and the typed event layer, and every
 * protocol type. Validators are a separate entry (`@mantyx/wire-types/validators`)
 * so that importing the client never pulls them all in; bundlers drop what is
 * not used from here (`"sideEffects": false`).
 */
export * from "./generated/client.js";
export * from "./runtime/client/index.js";
export * from "./runtime/sse/index.js";
export * from "./runtime/events/index.js";
export type * from "./generated/types.js";
