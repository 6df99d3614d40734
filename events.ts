/**
 * `@mantyx/wire-types/events`: the typed event layer alone, both halves:
 * the protocol-neutral runtime (decodeTypedEvents over any EventStreamSpec)
 * and the MANTYX event stream bound to it (decodeEvents, isTerminalEvent, …).
 */
export * from "./runtime/events/index.js";
export * from "./generated/events.js";
