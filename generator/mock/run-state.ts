/**
 * One mock run: its persisted event log (the source of truth a stream
 * replays from), the tool calls it waits for, and cancellation.
 */
/**
 * A log entry: a protocol event, or a raw frame (`data` written verbatim) for
 * malformed-input scenarios, optionally without its `id:` line (it then
 * keeps the previous frame's id, as SSE ids persist).
 */
export type LogEntry =
  | { seq: number; type: string; data: unknown }
  | { seq: number; type: string; raw: string; noId?: boolean };

import { isTerminalType } from "./artefacts.js";
import { editionShapes, type Edition, type EditionShapes } from "./editions.js";
import { RunFaults, type FaultSpec, type StoredEntry } from "./faults/index.js";
import type { ScriptRun } from "./flow-player.js";
import { isEnvelopeFrame } from "../transcript/frame-shape.js";

export const CANCELLED = Symbol("cancelled");
export const TIMED_OUT = Symbol("timed-out");

export type ToolAnswerBody = { toolUseId: string; result?: string; error?: string; files?: unknown };

export class MockRun {
  readonly events: LogEntry[] = [];
  done = false;
  status: "running" | "succeeded" | "failed" | "cancelled" = "running";
  finalText: string | null = null;
  error: string | null = null;
  private seq = 0;
  private readonly listeners = new Set<() => void>();
  private readonly pending = new Map<string, (answer: ToolAnswerBody | typeof CANCELLED | typeof TIMED_OUT) => void>();
  readonly answered = new Set<string>();
  /** Tool calls the run stopped waiting for (timed out): a result posted later answers 409. */
  readonly expired = new Set<string>();
  /** The frame shape this run's streams use instead of the server's (a flow's `frames`). */
  frames: FrameShape | undefined;
  /** How the run ended: `cancel` when by POST /cancel (whose late tool results the edition may accept). */
  endedBy: "cancel" | "script" | undefined;
  readonly shapes: EditionShapes;
  /** The scripted transcript this run plays (a flow case or a user's script), when its scenario names one. */
  script: ScriptRun | undefined;
  /** Tool-result POSTs received, by toolUseId, whatever their outcome (the fault suites count them: one per call). */
  readonly toolResultPosts = new Map<string, number>();
  /** Stream connections opened so far (a connection's number, for `@` in fault specs, is this count at its start). */
  connections = 0;
  private readonly storedFaults: RunFaults;

  constructor(
    readonly id: string,
    readonly spec: Record<string, unknown>,
    readonly sessionId: string | undefined,
    /** The server's edition (MockServerOptions.edition), or the run's `metadata.edition`: the shapes its events and answers take. */
    readonly edition: Edition = "2026-10",
    /** The fault specs given for the whole run, from the most general (`--fault`) to the most specific (the create-run request). */
    readonly faults: readonly FaultSpec[] = [],
  ) {
    this.shapes = editionShapes(edition);
    this.storedFaults = new RunFaults(faults);
  }

  /** Appends an event (seq assigned here; the run's stored-event faults applied) and wakes the streams. */
  emit(type: string, data: unknown): void {
    if (this.done) return;
    const terminal = isTerminalType(type);
    for (const entry of this.storedFaults.expand(type, data, terminal)) this.store(entry);
    if (terminal) this.finish(type, data);
    this.wake();
  }

  private store(entry: StoredEntry): void {
    this.seq++;
    this.events.push({ seq: this.seq, ...entry });
  }

  /** Appends a frame whose `data:` line is `raw` (not necessarily JSON), with or without its `id:` line. */
  emitRaw(type: string, raw: string, options: { noId?: boolean } = {}): void {
    if (this.done) return;
    this.seq++;
    this.events.push(options.noId === true ? { seq: this.seq, type, raw, noId: true } : { seq: this.seq, type, raw });
    this.wake();
  }

  private finish(type: string, data: unknown): void {
    this.done = true;
    this.endedBy ??= "script";
    const d = (data ?? {}) as { text?: string; error?: string; partialText?: string; subtype?: string };
    if (type === "result") {
      const failed = typeof d.subtype === "string" && d.subtype.startsWith("error");
      this.status = failed ? "failed" : "succeeded";
      this.finalText = d.text ?? null;
      this.error = failed ? (d.error ?? d.subtype ?? null) : null;
      this.endedBy = "script";
    } else if (type === "error") {
      this.status = "failed";
      this.error = d.error ?? null;
      this.finalText = d.partialText ?? null;
    } else {
      this.status = "cancelled";
    }
    for (const resolve of this.pending.values()) resolve(CANCELLED);
    this.pending.clear();
  }

  private wake(): void {
    for (const l of [...this.listeners]) l();
  }

  /** Resolves at the next emit (or at once if the run is done). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waits for the tool result of `toolUseId` (or cancellation, or `timeoutMs`). */
  awaitTool(toolUseId: string, timeoutMs: number): Promise<ToolAnswerBody | typeof CANCELLED | typeof TIMED_OUT> {
    if (this.done) return Promise.resolve(CANCELLED);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(toolUseId);
        this.expired.add(toolUseId);
        resolve(TIMED_OUT);
      }, timeoutMs);
      this.pending.set(toolUseId, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
  }

  /**
   * A posted tool result: "accepted"; "duplicate" (already answered) or
   * "unknown" (never called), both 404 `unknown_tool_use`; "late" (the call
   * timed out) or "terminal" (the run ended), 409 `run_terminal`;
   * "after-cancel" (the run was cancelled), which the edition answers.
   */
  deliver(body: ToolAnswerBody): "accepted" | "duplicate" | "unknown" | "late" | "terminal" | "after-cancel" {
    this.toolResultPosts.set(body.toolUseId, (this.toolResultPosts.get(body.toolUseId) ?? 0) + 1);
    if (this.answered.has(body.toolUseId)) return "duplicate";
    if (this.expired.has(body.toolUseId)) return "late";
    if (this.done) return this.endedBy === "cancel" ? "after-cancel" : "terminal";
    const resolve = this.pending.get(body.toolUseId);
    if (resolve === undefined) return "unknown";
    this.pending.delete(body.toolUseId);
    this.answered.add(body.toolUseId);
    resolve(body);
    return "accepted";
  }

  /** Idempotent: the first call ends the run with the edition's `cancelled` event, later calls change nothing. */
  cancel(): void {
    if (this.done) return;
    this.endedBy = "cancel";
    this.emit("cancelled", { ...this.shapes.cancelledData });
  }

  /** Sleeps `ms`, or less if the run ends meanwhile. Returns false if it ended. */
  sleep(ms: number): Promise<boolean> {
    if (this.done) return Promise.resolve(false);
    return new Promise((resolve) => {
      const off = this.onChange(() => {
        if (this.done) {
          clearTimeout(timer);
          off();
          resolve(false);
        }
      });
      const timer = setTimeout(() => {
        off();
        resolve(!this.done);
      }, ms);
    });
  }
}

/**
 * How the mock writes each event's data (schema/CONVENTIONS.md, "Frame
 * shapes"): the nested envelope the documents show, the flattened frame
 * the official SDKs' mocks send (`{ seq, type, ...payload }`), or that
 * frame without `type` (typed by the `event:` line only).
 */
export type FrameShape = "envelope" | "flat" | "flat-untyped";

/**
 * The SSE frame of a log entry, exactly as the mock server writes it. A
 * payload that has no flattened form (not an object, or one whose only
 * field is an object `data`, which would read as an envelope) is written as
 * the envelope.
 */
export function frameOf(entry: LogEntry, shape: FrameShape = "envelope"): string {
  const data = "raw" in entry ? entry.raw : JSON.stringify(frameData(entry, shape));
  const id = "raw" in entry && entry.noId === true ? "" : `id: ${entry.seq}\n`;
  return `${id}event: ${entry.type}\ndata: ${data}\n\n`;
}

function frameData(entry: { seq: number; type: string; data: unknown }, shape: FrameShape): unknown {
  const payload = entry.data;
  const envelope = { seq: entry.seq, type: entry.type, data: payload };
  if (shape === "envelope" || payload === null || typeof payload !== "object" || Array.isArray(payload))
    return envelope;
  const flat = {
    seq: entry.seq,
    ...(shape === "flat" ? { type: entry.type } : {}),
    ...(payload as Record<string, unknown>),
  };
  return isEnvelopeFrame(flat) ? envelope : flat;
}
