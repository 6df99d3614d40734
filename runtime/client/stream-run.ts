/**
 * A streamed operation's events with resume (for MANTYX: `streamRun`,
 * wire-protocol.md §10, http-surface.md "SSE facts"). What is protocol-
 * specific (the event validator and terminal types, the resume query
 * parameter, how to ask whether the run is live) comes from the operation's
 * StreamSpec, which generated code builds from the schema (`x-resume`).
 *
 * When the connection drops before a terminal event — a network error, a
 * reset, a clean end of stream that never sent one, or (with `idleTimeoutMs`)
 * silence — the stream reconnects with `Last-Event-ID: <last seq>` and
 * `?lastSeq=<last seq>`, after a bounded exponential back-off with jitter
 * whose base (and minimum) is the stream's `retry:` when it sent one.
 * Replayed events with `seq` <= the last one delivered are dropped, so every
 * event reaches the consumer once, in `seq` order, however many reconnects
 * it took.
 *
 * Past the end of the run: the server replays the stored events after
 * `lastSeq`, then continues live, and closes the connection right after the
 * terminal event (http-surface.md). So
 * - a replayed terminal event (its `seq` <= `lastSeq`: delivered on an
 *   earlier pass) ends the iteration: nothing can follow it;
 * - a connection that ends cleanly without any new event means the terminal
 *   event is at or before `lastSeq` (the run is over), or that a proxy
 *   closed a quiet connection. `getRun` tells which. For a finished run
 *   (`succeeded`, `failed`, `cancelled`, or `tokens`/`turns` no longer
 *   null, which the server sets when the run ends) the stream is resumed once more,
 *   at once (the run may have ended just after the close, its terminal
 *   event not yet sent); when that pass brings nothing new either, the
 *   iteration ends cleanly (`terminal` stays undefined: that event was at
 *   or before `lastSeq`). For a live run (`queued`, `running`) it is a
 *   drop, backed off like any other but not counted toward `maxReconnects`:
 *   a long tool call behind a proxy that closes idle connections is normal,
 *   not a failure. Any other status counts as a drop.
 * The documents name no 404/409/410 for streaming a finished run; such an
 * answer is a MantyxApiError like any other 4xx.
 *
 * Not retried: 4xx answers other than 429 (MantyxApiError), a 200 that is not
 * `text/event-stream` (UnexpectedResponseError: the same request would get
 * the same page), an oversized event (SseParseError), and an invalid event
 * with `onInvalid: "throw"`. 429 and 5xx answers are retried with back-off
 * (honouring `Retry-After`).
 */
import { isSseParseError } from "../sse/index.js";
import { decodeTypedEventBatches, isTerminalOf, StreamDecodeError, type DecodedItem, type EventEnvelope, type OnInvalid } from "../events/index.js";
import type { CallOptions, ClientOptions, StreamOpener, StreamSpec } from "./core.js";
import { MantyxApiError, MantyxConnectionError, UnexpectedResponseError } from "./errors.js";
import { backoff, linked, sleep } from "./internal/backoff.js";

export interface StreamRunOptions extends CallOptions {
  /** Resume after this `seq` (events up to it are not delivered). */
  lastSeq?: number | undefined;
  /**
   * Treat a connection that sends no bytes for this long (heartbeat comments
   * count) as dropped, and reconnect. Default: off (a run may legitimately
   * wait minutes for a tool result, and the protocol promises no heartbeat).
   */
  idleTimeoutMs?: number | undefined;
  /**
   * Reconnects in a row without a new event before giving up with
   * MantyxConnectionError. Default 8. A clean close of a quiet connection
   * while getRun says the run is live does not count (it is backed off).
   */
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
export type RunStreamItem<E = EventEnvelope> = DecodedItem<E>;

/** The `seq` of a malformed message: its parsed envelope's, else its SSE id's (which may be inherited). */
function invalidSeq(item: StreamDecodeError): number | undefined {
  const seq = (item.value as { seq?: unknown } | null | undefined)?.seq;
  return Number.isInteger(seq) && (seq as number) >= 0 ? (seq as number) : /^\d+$/.test(item.frame.id) ? +item.frame.id : undefined;
}

/**
 * What `streamRun` returns: an async iterable of the run's items that also
 * tells where it got to. Iterating it again continues after `lastSeq` (and
 * ends at once when the terminal event has been delivered).
 */
export interface RunEventStream<Item = RunStreamItem, Terminal = EventEnvelope> extends AsyncIterable<Item> {
  /** `seq` of the last event delivered (or skipped as invalid); the resume point. */
  lastSeq: number | undefined;
  /** The terminal event, once seen (delivered, or replayed after having been delivered on an earlier pass). */
  terminal: Terminal | undefined;
}

/**
 * The stream behind a streamed operation. `url` is the stream's URL (or the
 * caller mistake that prevented building it, thrown by the first `next()`);
 * `open` sends one request, resuming after `lastSeq` when defined, and
 * resolves with the 2xx response or throws as a request does
 * (MantyxApiError, MantyxConnectionError). `settings` are the client's
 * options; `client` answers the spec's status probe, called with
 * `pathArgs` (the stream method's path arguments).
 */
export function runEventStream(
  client: unknown,
  settings: ClientOptions,
  id: string,
  spec: StreamSpec,
  pathArgs: readonly unknown[],
  options: StreamRunOptions,
  url: string | Error,
  open: StreamOpener,
): RunEventStream {
  const { events, status: probe } = spec;
  const isTerminal = (item: unknown): boolean => isTerminalOf(events, item);
  const { signal: user, idleTimeoutMs, onInvalid = "throw" } = options;
  const warn = settings.onWarning ?? ((m: string) => console.warn(m));
  // A strict-only event is reported once: not again when a reconnect replays
  // it (decoding, and so the strict check, happens before replays are dropped).
  const decodeWarn = (message: string, detail: StreamDecodeError): void => {
    const seq = (detail.value as { seq?: unknown } | undefined)?.seq;
    if (detail.type === "strict-only" && typeof seq === "number" && stream.lastSeq !== undefined && seq <= stream.lastSeq) return;
    warn(message, detail);
  };
  /** Drops since the last new event (the back-off's attempt), and those of them that count toward `maxReconnects`. */
  let drops = 0;
  let failures = 0;
  /** getRun said the run is over after a clean end with nothing new: the pass after that is the last (unless it brings something new). */
  let finished = false;
  let retryMs: number | undefined;
  // Malformed messages passed (delivered or skipped) with `seq` equal to
  // `lastSeq`: a message without an `id:` line inherits the previous one's
  // id (SSE ids persist), so several in a row may share one. Only a resumed
  // connection replays, and only before its first new item with a known
  // seq; there the first that many malformed messages with that seq are
  // replays, and any more are new. Past the replay none is dropped.
  let invalidAtLast = 0;
  const stream: RunEventStream = {
    lastSeq: options.lastSeq,
    terminal: undefined,
    async *[Symbol.asyncIterator]() {
      if (typeof url != "string") throw url;
      // Each pass gets the whole reconnect budget (a pass that gave up used it).
      drops = failures = 0;
      // Delivered already: the run is over, never reconnect.
      while (!stream.terminal) {
        const connection = linked(user);
        let timer: ReturnType<typeof setTimeout> | undefined;
        let idle: Error | undefined;
        /** (Re)starts the idle timer: before the request, and at every chunk of bytes. */
        const touch = (): void => {
          clearTimeout(timer);
          if (idleTimeoutMs! > 0) timer = setTimeout(() => connection.abort((idle = new Error(`no bytes for ${idleTimeoutMs} ms`))), idleTimeoutMs);
        };
        let fatal: unknown;
        let reason: unknown;
        /** Delivered something new on this connection. */
        let fresh = false;
        /** Past the replay: a new item with a known seq was seen (a malformed one without a seq cannot tell). */
        let pastReplay = false;
        /** Malformed messages with seq `lastSeq` that this connection may replay. */
        let replayable = invalidAtLast;
        let quiet = false;
        try {
          touch();
          const response = await open(stream.lastSeq, connection.signal);
          const contentType = response.headers.get("content-type");
          // (Its body is let go with the connection, in `finally`.)
          if (!/^text\/event-stream/i.test(contentType!)) {
            throw (fatal = new UnexpectedResponseError(`${id}: ${response.status} ${contentType}, not text/event-stream (a proxy or login page?)`, { operationId: id, status: response.status, contentType }));
          }
          // Any bytes reset the idle timer, heartbeat comments included.
          const bytes = response.body!.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ transform: (chunk, out) => (touch(), out.enqueue(chunk)) }));
          for await (const batch of decodeTypedEventBatches(bytes, events, { onInvalid: "deliver", validation: settings.validation, strict: settings.strictEvents, onWarning: decodeWarn, onRetry: (v) => (retryMs = v) })) {
            for (const item of batch) {
              const last = stream.lastSeq;
              if (item instanceof StreamDecodeError) {
                const seq = invalidSeq(item);
                if (seq !== undefined) {
                  if (!pastReplay && last !== undefined && (seq < last || (seq == last && replayable > 0))) {
                    if (seq == last) replayable--;
                    continue;
                  }
                  pastReplay = true;
                  if (last === undefined || seq > last) {
                    stream.lastSeq = seq;
                    invalidAtLast = 1;
                  } else if (seq == last) invalidAtLast++;
                }
                fresh = true;
                if (onInvalid == "throw") throw (fatal = item);
                if (onInvalid != "deliver") {
                  warn(`MANTYX: skipped a malformed stream message (onInvalid: "skip-and-warn"): ${item.message}`, item);
                  if (item.terminal) return; // the run is over; its terminal event was malformed
                  continue;
                }
              } else if (last !== undefined && item.seq <= last) {
                // Replayed. A replayed terminal event was delivered on an earlier pass: the run is over.
                if (isTerminal(item)) return void (stream.terminal = item);
                continue;
              } else {
                stream.lastSeq = item.seq;
                invalidAtLast = 0;
                fresh = pastReplay = true;
                finished = false;
                drops = failures = 0;
              }
              // The consumer's time is not the server's silence.
              clearTimeout(timer);
              yield item;
              // A malformed terminal message ends the run too (`terminal` stays undefined).
              if (item instanceof StreamDecodeError ? item.terminal : isTerminal(item) && (stream.terminal = item)) return;
              touch();
            }
          }
          reason = new Error("no terminal event");
          if (!fresh) {
            // A clean end with nothing new: the run is over, or a proxy closed a quiet connection (see the top of this file).
            if (finished) return;
            if (probe) {
              const call = (client as Record<string, (...args: unknown[]) => Promise<Record<string, unknown> | undefined>>)[probe.operation]!;
              const answer = await call.call(client, ...pathArgs, options);
              const state = answer?.[probe.field] as string;
              // Over: a final status, or a field that stays null until the end.
              if ((finished = probe.done.includes(state) || (probe.doneWhenSet ?? []).some((f) => answer?.[f] != null))) continue;
              // Only a resource known to be live makes the close a quiet one; an unknown status counts as a drop (bounded).
              quiet = probe.live.includes(state);
            }
          }
        } catch (error) {
          if (user?.aborted) throw user.reason;
          // Fatal: our own verdicts, an oversized event, and 4xx answers but 429.
          if (error === fatal || isSseParseError(error) || (error instanceof MantyxApiError && error.status != 429 && error.status < 500)) throw error;
          reason = idle ?? error;
        } finally {
          clearTimeout(timer);
          connection.abort();
        }
        drops++;
        if (!quiet && ++failures > (options.maxReconnects ?? 8)) {
          throw new MantyxConnectionError(`${id}: ${failures} drops in a row; resume with { lastSeq: ${stream.lastSeq} }`, {
            operationId: id,
            cause: reason,
            attempts: failures,
            lastSeq: stream.lastSeq,
          });
        }
        const delayMs = backoff(drops, settings.retryDelay, retryMs, (reason as MantyxApiError | undefined)?.retryAfterMs);
        options.onReconnect?.({ attempt: drops, lastSeq: stream.lastSeq, delayMs, reason });
        await sleep(delayMs, user);
      }
    },
  };
  return stream;
}
