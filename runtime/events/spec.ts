/**
 * What the typed event layer needs to know about one event stream, as data.
 * Generated code builds it from the schema (the stream's item schema, its
 * discriminator and its `x-terminal` variants); nothing here names a
 * protocol's event types.
 */
import type { Validator } from "../validation/issue.js";

/** The envelope every event of such a stream has: a type tag and a sequence number. */
export interface EventEnvelope {
  readonly type: string;
  readonly seq: number;
}

export interface EventStreamSpec<E = EventEnvelope> {
  /** Checks one parsed event: the item schema's validator. Without one only the envelope (`seq`, `type`) is checked, as with `validation: "off"` (a program that turns validation off bundles no validator). */
  readonly validate?: Validator<E> | undefined;
  /** The types after which the server sends nothing more (the variants marked `x-terminal`). */
  readonly terminal: readonly string[];
  /**
   * The envelope member that holds an event's payload (MANTYX: `data`).
   * When set, flattened frames are read too: `{ seq, type?, ...payload }`,
   * the type from the frame else from the SSE `event:` line (./frame-shape.ts).
   * When absent, every frame's data is taken as the envelope.
   */
  readonly payload?: string | undefined;
}

/** True for a value whose type tag is one of `spec`'s terminal types. */
export const isTerminalOf = (spec: EventStreamSpec<unknown>, event: unknown): boolean =>
  spec.terminal.includes((event as { type?: unknown } | null | undefined)?.type as string);
