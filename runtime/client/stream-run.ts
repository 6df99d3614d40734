/**
 * `streamRun`: the run's events with resume (wire-protocol.md §10,
 * http-surface.md "SSE facts").
 *
 * When the connection drops before a terminal event — a network error, a
 * reset, a clean end of stream that never sent one, or (with `idleTimeoutMs`)
 * silence — the stream reconnects with `Last-Event-ID: <last seq>` and
 * `?lastSeq=<last seq>`, after a bounded exponential back-off with jitter
 * whose base is the stream's `retry:` when it sent one. Replayed events with
 * `seq` <= the last one delivered are dropped, so every event reaches the
 * consumer once, in `seq` order, however many reconnects it took.
 *
 * Not retried: 4xx answers other than 429 (MantyxApiError), a 200 that is not
 * `text/event-stream` (UnexpectedResponseError: the same request would get
 * the same page), an oversized event (SseParseError), and an invalid event
 * with `onInvalid: "throw"`. 429 and 5xx answers are retried with back-off
 * (honouring `Retry-After`).
 */
import { isSseParseError } from "../sse/index.js";
import { decodeEventBatches, isTerminalEvent, StreamDecodeError, type DecodedItem, type OnInvalid, type TerminalEvent } from "../events/index.js";
import type { CallOptions, ClientCore, OperationInfo } from "./core.js";
import { MantyxConnectionError, UnexpectedResponseError, retryAfterMs } from "./errors.js";
import { backoffDelay, childController, sleep } from "./internal/backoff.js";

export interface StreamRunOptions extends CallOptions {
  /** Resume after this `seq` (events up to it are not delivered). */
  lastSeq?: number | undefined;
  /**
   * Treat a connection that sends no bytes for this long (heartbeat comments
   * count) as dropped, and reconnect. Default: off (a run may legitimately
   * wait minutes for a tool result, and the protocol promises no heartbeat).
   */
  idleTimeoutMs?: number | undefined;
  /** Reconnects in a row without a new event before giving up with MantyxConnectionError. Default 8. */
  maxReconnects?: number | undefined;
  /** A message that is not a valid event: `"throw"` (default), `"deliver"` it as a StreamDecodeError item, or `"skip-and-warn"`. */
  onInvalid?: OnInvalid | undefined;
  /** Called before each reconnect, e.g. for logging. */
  onReconnect?: ((info: ReconnectInfo) => void) | undefined;
}

export interface ReconnectInfo {
  /** 1 for the first reconnect after a drop; reset by every new event. */
  attempt: number;
  lastSeq: number | undefined;
  delayMs: number;
  /** Why the previous connection ended. */
  reason: unknown;
}

/** Items of a run stream: events, plus StreamDecodeErrors with `onInvalid: "deliver"`. */
export type RunStreamItem = DecodedItem;

function isEventStream(response: Response): boolean {
  return /^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "");
}

/** A timer the connection's bytes keep pushing back; paused while the consumer holds an event. */
class IdleTimer {
  fired = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  constructor(private readonly ms: number, private readonly onIdle: () => void) {
    this.touch();
  }
  touch(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.onIdle();
    }, this.ms);
  }
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** `body`'s chunks, calling `onChunk` as each arrives (raw bytes reset the idle timer). */
function touching(body: ReadableStream<Uint8Array>, onChunk: () => void): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const reader = body.getReader();
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          const r = await reader.read();
          if (r.done) return { done: true, value: undefined };
          onChunk();
          return { done: false, value: r.value };
        },
        async return(): Promise<IteratorResult<Uint8Array>> {
          await reader.cancel().catch(() => undefined);
          return { done: true, value: undefined };
        },
      };
    },
  };
}

function numericId(id: string): number | undefined {
  return /^[0-9]+$/.test(id) ? Number(id) : undefined;
}

/** The `seq` of a malformed message: its parsed envelope's, else its SSE id's (which may be inherited). */
function invalidSeq(item: StreamDecodeError): number | undefined {
  const seq = (item.value as { seq?: unknown } | null | undefined)?.seq;
  return typeof seq === "number" && Number.isInteger(seq) && seq >= 0 ? seq : numericId(item.frame.id);
}

/** The async iterable `streamRun` returns; also tells where it got to. */
export class RunEventStream implements AsyncIterable<RunStreamItem> {
  /** `seq` of the last event delivered (or skipped as invalid); resume point. */
  lastSeq: number | undefined;
  /** The terminal event, once delivered. */
  terminal: TerminalEvent | undefined = undefined;
  /** Connections opened so far (1 + reconnects that reached the server). */
  connections = 0;
  private used = false;

  constructor(
    private readonly core: ClientCore,
    private readonly op: OperationInfo,
    private readonly runId: string,
    private readonly options: StreamRunOptions,
  ) {
    this.lastSeq = options.lastSeq;
  }

  [Symbol.asyncIterator](): AsyncIterator<RunStreamItem> {
    if (this.used) throw new TypeError(`streamRun(${JSON.stringify(this.runId)}) can be iterated once; call streamRun again (with { lastSeq }) for another pass.`);
    this.used = true;
    return this.events();
  }

  private async *events(): AsyncGenerator<RunStreamItem, void, undefined> {
    const { core, op, options } = this;
    const userSignal = options.signal;
    const onInvalid = options.onInvalid ?? "throw";
    const maxReconnects = options.maxReconnects ?? 8;
    const idleMs = options.idleTimeoutMs;
    let failures = 0;
    let serverRetryMs: number | undefined;
    // Whether `lastSeq` came from a malformed message. A message without an
    // `id:` line inherits the previous one's id (SSE ids persist), so a
    // malformed one whose seq equals the last valid event's is new, not a
    // replay; equal to a malformed one's, it is the replay of that message.
    let lastSeqInvalid = false;
    // A caller mistake (no workspace, empty runId) throws here, not in the reconnect loop.
    core.url(op, { path: { runId: this.runId } }, options);
    for (;;) {
      if (userSignal?.aborted) throw userSignal.reason;
      const { controller, dispose } = childController(userSignal);
      let idle: IdleTimer | undefined;
      let reason: unknown;
      let retryAfter: number | undefined;
      try {
        const lastSeq = this.lastSeq;
        let response: Response | undefined;
        // Started before the request: a server that never answers is silent too.
        if (idleMs !== undefined && idleMs > 0) idle = new IdleTimer(idleMs, () => controller.abort(new Error(`no bytes for ${idleMs} ms`)));
        const timer = idle;
        try {
          response = await core.send(
            op,
            {
              path: { runId: this.runId },
              query: { lastSeq },
              headers: { "last-event-id": lastSeq === undefined ? undefined : String(lastSeq) },
            },
            options,
            "text/event-stream",
            controller.signal,
          );
        } catch (error) {
          if (userSignal?.aborted) throw userSignal.reason;
          reason = timer?.fired ? new Error(`no answer for ${idleMs} ms (idleTimeoutMs)`) : error;
        }
        if (response !== undefined) {
          if (!response.ok) {
            const error = await core.apiError(op, response);
            if (response.status !== 429 && response.status < 500) throw error;
            reason = error;
            retryAfter = retryAfterMs(response.headers.get("retry-after"));
          } else if (!isEventStream(response) || response.body === null) {
            const type = response.headers.get("content-type");
            await response.body?.cancel().catch(() => undefined);
            throw new UnexpectedResponseError(op.id, response.status, type, "the stream route answered without a text/event-stream body (a proxy or login page?); not reconnecting");
          } else {
            this.connections++;
            timer?.touch();
            const source = timer === undefined ? response.body : touching(response.body, () => timer.touch());
            try {
              const batches = decodeEventBatches(source, {
                onInvalid: "deliver",
                validation: core.validation,
                onWarning: core.onWarning,
                onRetry: (ms) => {
                  serverRetryMs = ms;
                },
                onComment: timer === undefined ? undefined : () => timer.touch(),
                signal: controller.signal,
              });
              for await (const batch of batches) {
                for (const item of batch) {
                  if (item instanceof StreamDecodeError) {
                    const seq = invalidSeq(item);
                    if (seq !== undefined) {
                      if (this.lastSeq !== undefined && (seq < this.lastSeq || (seq === this.lastSeq && lastSeqInvalid))) continue;
                      this.lastSeq = seq;
                      lastSeqInvalid = true;
                    }
                    if (onInvalid === "throw") throw item;
                    if (onInvalid === "skip-and-warn") {
                      core.onWarning(`MANTYX: skipped a malformed stream message (onInvalid: "skip-and-warn"): ${item.message}`, item);
                      if (item.terminal) return; // the run is over; its terminal event was malformed
                      continue;
                    }
                  } else {
                    if (this.lastSeq !== undefined && item.seq <= this.lastSeq) continue; // replayed
                    this.lastSeq = item.seq;
                    lastSeqInvalid = false;
                    failures = 0;
                  }
                  // The consumer's time is not the server's silence.
                  timer?.stop();
                  yield item;
                  if (item instanceof StreamDecodeError) {
                    if (item.terminal) return; // malformed, but terminal: `terminal` stays undefined
                  } else if (isTerminalEvent(item)) {
                    this.terminal = item;
                    return;
                  }
                  timer?.touch();
                }
              }
              reason = new Error("the stream ended before a terminal event");
            } catch (error) {
              if (userSignal?.aborted) throw userSignal.reason;
              if (error instanceof StreamDecodeError || isSseParseError(error)) throw error;
              reason = timer?.fired ? new Error(`no bytes for ${idleMs} ms (idleTimeoutMs)`) : error;
            }
          }
        }
      } finally {
        idle?.stop();
        controller.abort();
        dispose();
      }
      failures++;
      if (failures > maxReconnects) {
        throw new MantyxConnectionError(
          op.id,
          `the event stream of run ${this.runId} dropped ${failures} times in a row without a new event; giving up. ` +
            `Resume later with streamRun(runId, { lastSeq: ${this.lastSeq ?? "undefined"} }), or raise maxReconnects.`,
          { cause: reason, attempts: failures, lastSeq: this.lastSeq },
        );
      }
      const delayMs = backoffDelay(failures, core.retryDelay, serverRetryMs, retryAfter);
      options.onReconnect?.({ attempt: failures, lastSeq: this.lastSeq, delayMs, reason });
      await sleep(delayMs, userSignal);
    }
  }
}
