/**
 * A streamed operation's events with resume (for MANTYX: `streamRun`,
 * wire-protocol.md §10, http-surface.md "SSE facts"). What is protocol-
 * specific (the event validator and terminal types, the resume query
 * parameter, how to ask whether the run is live) comes from the operation's
 * StreamSpec, which generated code builds from the schema (`x-resume`). A
 * stream ends with its terminal event or with an error, never quietly short.
 *
 * When the connection drops before a terminal event — a network error, a
 * reset, a clean end of stream that never sent one, a 429/5xx, or silence
 * longer than `idleTimeoutMs` — the stream
 * reconnects with `Last-Event-ID: <last seq>` and `?lastSeq=<last seq>`.
 * Replayed events with `seq` <= the last one delivered are dropped, so every
 * event reaches the consumer once, in `seq` order, however many reconnects
 * it took (and whether or not the server, or a proxy stripping the hints,
 * honours the resume point).
 *
 * When to reconnect: right away (a little jitter) after a connection that
 * delivered new events — that was a drop, not an outage; over connections
 * in a row that delivered nothing, a bounded exponential back-off
 * (`reconnectDelay`) whose base and minimum is the stream's `retry:`, and
 * never sooner than a `Retry-After`. Only those empty connections count
 * toward `maxReconnects`, and not all of them:
 *
 * - A connection the server answered with an event stream that then ends
 *   (cleanly, cut, or silent for `idleTimeoutMs`) with nothing new is
 *   checked with the spec's status probe (MANTYX: `getRun`). For
 *   a live run (`queued`, `running`) the server is legitimately quiet (a
 *   long tool call, a proxy closing quiet connections): a drop that does
 *   not count (and one that stayed open for the whole idle timeout is
 *   reconnected at once: it was no hammering). So the default idle timeout
 *   notices a half-open connection in bounded time, and never fails a run
 *   whose tool takes minutes. Any other status than a final one counts.
 *   Bounded by the run itself: the server ends it (its tool timeout) and
 *   the probe then says so.
 * - For a finished run (`succeeded`, `failed`, `cancelled`, or
 *   `tokens`/`turns` no longer null, which the server sets when the run
 *   ends) the terminal event must be in the stored log: the stream
 *   reconnects without resume hints, so the server replays the whole log and
 *   the terminal event comes back whether it lies after `lastSeq` (never
 *   sent before the close) or at or before it (a run resumed past its end:
 *   it is then `terminal`, and nothing more is delivered). Each such
 *   connection that still brings no terminal event counts; when they run
 *   out, a ConnectionError says so.
 *
 * A replayed terminal event (its `seq` <= `lastSeq`: delivered on an earlier
 * pass) ends the iteration: nothing can follow it.
 *
 * Not retried: 4xx answers other than 429 (ApiError), an oversized
 * event (SseParseError), and an invalid event with `onInvalid: "throw"`. A
 * 2xx that is not `text/event-stream` (a proxy's or login page, a JSON
 * error, a 204) is thrown at once, as WHATWG SSE fails the connection: an
 * UnexpectedResponseError naming its content type, its body never read.
 *
 * The credential never leaves in what this file reports: a content type, a
 * malformed frame (StreamDecodeError, thrown, delivered or warned about) and
 * any warning pass through the client's redaction first.
 */
import { DEFAULT_MAX_EVENT_BYTES, type SseMessage } from "../sse/fields.js";
import { decoder } from "../sse/framing.js";
import { SseParseError } from "../sse/errors.js";
import { checkEvent, readEvent, type DecodeOptions, type EventCheck } from "../events/decode.js";
import { isTerminalOf, StreamDecodeError, type DecodedItem, type EventEnvelope } from "../events/index.js";
import type { HttpClient, OperationKind } from "./core.js";
import type { StreamRunOptions } from "./operation.js";
import { ApiError, ConnectionError, unexpectedResponse } from "./errors.js";
import { linked, reconnectDelay, sleep } from "./internal/backoff.js";
import { redactError, scrub, type Redact } from "./internal/redact.js";

/** Default `idleTimeoutMs`: a half-open connection is noticed within a minute. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** Items of a run stream: events, plus StreamDecodeErrors with `onInvalid: "deliver"`. */
export type RunStreamItem<E = EventEnvelope> = DecodedItem<E>;

/** The `seq` of a malformed message: its parsed envelope's, else its SSE id's (which may be inherited). */
function invalidSeq(item: StreamDecodeError): number | undefined {
  const seq = (item.value as { seq?: unknown } | null | undefined)?.seq;
  return Number.isInteger(seq) && (seq as number) >= 0
    ? (seq as number)
    : /^\d+$/.test(item.frame.id)
      ? +item.frame.id
      : undefined;
}

/**
 * `item` with every form of the credential removed from its frame, value, issues, message and cause (a server may echo it into a frame).
 * The frame's texts are redacted as received: a JSON echo of the key is there in its escaped form, which JSON-encoding the frame again would hide.
 */
function redacted(item: StreamDecodeError, hide: Redact): StreamDecodeError {
  const { frame } = item;
  let value: unknown;
  try {
    value = scrub(item.value, hide);
  } catch {
    // Nested deeper than JSON.stringify's stack (JSON.parse has none): left out, the frame's text holds it.
  }
  return new StreamDecodeError(
    item.type,
    { ...frame, id: hide(frame.id), event: hide(frame.event), data: hide(frame.data) },
    scrub(item.issues, hide),
    redactError(item.cause, hide),
    value,
    item.terminal,
    item.shape,
  );
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

/** How the status probe describes the run: over, live, or neither (an unknown status, or no probe). */
type RunState = "over" | "live" | "unknown";

/** A function of the operation that answers a stream's status probe (MANTYX: `getRun`), called with the client and the stream's path arguments. */
export type StatusOperation = (client: HttpClient, ...args: never[]) => Promise<unknown>;

/** A 4xx answer but 408 and 429: the request itself is wrong, and sending it again gives the same answer. */
const refused = (error: unknown): boolean =>
  error instanceof ApiError && error.status != 429 && error.status != 408 && error.status < 500;

/**
 * The resumable event stream as an operation kind (core.ts): the stream of
 * a call of an operation with a `stream` spec, its status probe answered by
 * the operation function `probe` returns (asked for when needed: generated
 * code may define it further down). A caller mistake that prevents
 * building the URL (a missing path value, a header value fetch refuses) is
 * thrown by the first `next()`, not retried as a drop; each connection
 * resumes after `lastSeq` when defined; the credential is removed (`hide`)
 * from what the stream reports. Events are checked by `check`
 * (`checkEvent`, runtime/events/decode.ts) as the client's `validation`
 * says; without one (the unvalidated operations), for their envelope only.
 */
export const eventStream =
  (probeOperation: (() => StatusOperation) | undefined, check?: EventCheck): OperationKind =>
  ({
    client,
    id,
    operation,
    args,
    pathArgs,
    callOptions,
    settings,
    url: target,
    headers,
    hide: redaction,
    request,
  }): RunEventStream => {
    const spec = operation.stream!;
    const { events, status: probe, resumeQuery } = spec;
    const options: StreamRunOptions = callOptions ?? {};
    let url: string | Error;
    let hide: Redact = (text) => text; // (nothing is sent, nor reported but that mistake)
    try {
      hide = redaction();
      url = target();
    } catch (e) {
      url = e as Error;
    }
    const { signal: user, idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS, onInvalid = "throw" } = options;
    const maxReconnects = options.maxReconnects ?? 8;
    const delays = options.reconnectDelay ?? settings.reconnectDelay;
    const report = settings.onWarning ?? ((m: string) => console.warn(m));
    const warn = (message: string, detail: StreamDecodeError): void => report(hide(message), redacted(detail, hide));
    // A strict-only event is reported once: not again when a reconnect replays
    // it (decoding, and so the strict check, happens before replays are dropped).
    const decoding: DecodeOptions = {
      validation: settings.validation,
      strict: settings.strictEvents,
      onWarning: warn,
      get seen() {
        return stream.lastSeq;
      },
    };
    /** Reconnects since the last new event; connections in a row without one (the back-off's exponent); those of them that count toward `maxReconnects`. */
    let attempt = 0;
    let empties = 0;
    let failures = 0;
    /** The status probe said the run is over: its terminal event is in the stored log, so reconnect without resume hints (a full replay). */
    let finished = false;
    let retryMs: number | undefined;
    // Malformed messages passed (delivered or skipped) with `seq` equal to
    // `lastSeq`: a message without an `id:` line inherits the previous one's
    // id (SSE ids persist), so several in a row may share one. Only a resumed
    // connection replays, and only before its first new item with a known
    // seq; there the first that many malformed messages with that seq are
    // replays, and any more are new. Past the replay none is dropped. Before
    // the first seq, they count those at the start of the stream (which a
    // connection without resume hints replays too).
    let invalidAtLast = 0;
    const runState = async (): Promise<RunState> => {
      if (!probe || !probeOperation) return "unknown";
      const answer = (await (probeOperation() as (...a: unknown[]) => Promise<unknown>)(
        client,
        ...args.slice(0, pathArgs),
        options,
      )) as Record<string, unknown> | undefined;
      const state = answer?.[probe.field] as string;
      // Over: a final status, or a field that stays null until the end.
      if (probe.done.includes(state) || (probe.doneWhenSet ?? []).some((f) => answer?.[f] != null)) return "over";
      // Only a resource known to be live makes the silence a quiet one; an unknown status counts as a drop (bounded).
      return probe.live.includes(state) ? "live" : "unknown";
    };
    const stream: RunEventStream = {
      lastSeq: options.lastSeq,
      terminal: undefined,
      async *[Symbol.asyncIterator]() {
        if (typeof url != "string") throw url;
        // Each pass gets the whole reconnect budget (a pass that gave up used it).
        attempt = empties = failures = 0;
        // Delivered already: the run is over, never reconnect.
        while (!stream.terminal) {
          const connection = linked(user);
          let timer: ReturnType<typeof setTimeout> | undefined;
          let idle: Error | undefined;
          /** (Re)starts the idle timer: before the request, and at every chunk of bytes. */
          const touch = (): void => {
            clearTimeout(timer);
            if (idleTimeoutMs > 0)
              timer = setTimeout(
                () => connection.abort((idle = new Error(`no bytes for ${idleTimeoutMs} ms`))),
                idleTimeoutMs,
              );
          };
          let fatal: unknown;
          let reason: unknown;
          /** Delivered something new on this connection. */
          let fresh = false;
          /** The server answered with an event stream (so silence after that is the run's, not a dead server's). */
          let answered = false;
          /** Past the replay: a new item with a known seq was seen (a malformed one without a seq cannot tell). */
          let pastReplay = false;
          /** Malformed messages with seq `lastSeq` that this connection may replay. */
          let replayable = invalidAtLast;
          /** This empty connection counts toward maxReconnects. */
          let counted = true;
          let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
          try {
            touch();
            const seq = finished ? undefined : stream.lastSeq;
            const response = await request(
              seq === undefined || !resumeQuery
                ? (url as string)
                : `${url}${(url as string).includes("?") ? "&" : "?"}${encodeURIComponent(resumeQuery)}=${seq}`,
              0,
              connection.signal,
              "text/event-stream",
              // The call's own headers (its header parameters and credentials of a scheme), and the resume point.
              seq === undefined ? headers : { ...headers, "last-event-id": `${seq}` },
            );
            // A 2xx without an event stream (a proxy's or login page, a JSON
            // error; a 204, WHATWG's "stop reconnecting"): WHATWG SSE fails the
            // connection, and so does this, at once, with the typed error
            // naming the content type: another request would get the same
            // page. Its body is never read: it is let go with the connection,
            // in `finally`.
            if (response.status == 204 || !/^text\/event-stream/i.test(response.headers.get("content-type")!))
              throw (fatal = unexpectedResponse(id, response, hide, "text/event-stream"));
            answered = true;
            // Read here, not through the decoder's iterators (runtime/sse/iterate.ts): the
            // connection's own abort ends a pending read and lets the body go.
            reader = response.body!.getReader();
            const frames: SseMessage[] = [];
            const feed = decoder(
              { onMessage: (m) => void frames.push(m), onRetry: (v) => (retryMs = v) },
              DEFAULT_MAX_EVENT_BYTES,
            );
            read: for (;;) {
              const chunk = await reader.read();
              if (chunk.done) break;
              // Any bytes reset the idle timer, heartbeat comments included.
              touch();
              let failed: [unknown] | undefined;
              try {
                feed(chunk.value);
              } catch (error) {
                // (An oversized event: thrown after the events completed before it.)
                failed = [error];
              }
              for (const frame of frames.splice(0)) {
                let item = readEvent(frame, events, decoding, check);
                const last = stream.lastSeq;
                if (item instanceof StreamDecodeError) {
                  // Without a seq of its own before anything with one, it follows the resume point, as the messages inheriting
                  // that id did: a server resuming after `lastSeq` sends those with no id (the connection has none yet). Before
                  // any seq at all (-1: the start of the stream) it is where every connection without resume hints starts.
                  const own = invalidSeq(item);
                  const at = last ?? -1;
                  const seq = own ?? (pastReplay ? undefined : at);
                  item = redacted(item, hide);
                  if (seq !== undefined) {
                    if (!pastReplay && (seq < at || (seq == at && replayable > 0))) {
                      if (seq == at) replayable--;
                      // A replayed malformed terminal message: nothing follows it on this connection.
                      if (item.terminal) break read;
                      continue;
                    }
                    // (One without a seq of its own leaves the replay open: the next like it is at the same point.)
                    if (own !== undefined) pastReplay = true;
                    if (seq > at) {
                      stream.lastSeq = seq;
                      invalidAtLast = 1;
                    } else if (seq == at) invalidAtLast++;
                  }
                  fresh = true;
                  if (onInvalid == "throw") throw (fatal = item);
                  if (onInvalid != "deliver") {
                    warn(`${id}: skipped (onInvalid "skip-and-warn"): ${item.message}`, item);
                    if (item.terminal) return; // the run is over; its terminal event was malformed
                    continue;
                  }
                } else if (last !== undefined && item.seq <= last) {
                  // Replayed. A replayed terminal event was delivered on an earlier pass (or before `lastSeq`): the run is over.
                  if (isTerminalOf(events, item)) return void (stream.terminal = item);
                  continue;
                } else {
                  stream.lastSeq = item.seq;
                  invalidAtLast = 0;
                  fresh = pastReplay = true;
                  finished = false;
                  attempt = empties = failures = 0;
                }
                // The consumer's time is not the server's silence.
                clearTimeout(timer);
                yield item;
                // A malformed terminal message ends the run too (`terminal` stays undefined).
                if (
                  item instanceof StreamDecodeError
                    ? item.terminal
                    : isTerminalOf(events, item) && (stream.terminal = item)
                )
                  return;
                touch();
              }
              if (failed) throw failed[0];
            }
            reason = new Error("the stream ended without a terminal event");
          } catch (error) {
            if (user?.aborted) throw user.reason;
            // Fatal: our own verdicts, an oversized event, and 4xx answers but 429.
            if (error === fatal || error instanceof SseParseError || refused(error)) throw error;
            // (Passed to onReconnect and kept as the cause: a body-read error is the runtime's, not ours.)
            reason = idle ?? redactError(error, hide);
          } finally {
            clearTimeout(timer);
            reader?.cancel().catch(() => {});
            connection.abort();
          }
          if (!fresh) {
            empties++;
            // Nothing new, though the server answered (then ended cleanly, fell silent or dropped): the run is over, or quiet (see the top of this file).
            if (answered && !finished) {
              try {
                const state = await runState();
                if (state == "over") finished = true;
                counted = state == "unknown";
                // A live run's connection that stayed open for the whole idle
                // timeout was no hammering: reconnect at once, as after progress.
                if (state == "live" && idle) empties = 0;
              } catch (error) {
                if (user?.aborted) throw user.reason;
                if (refused(error)) throw error;
                reason = error;
              }
            }
            if (counted && ++failures > maxReconnects) {
              const what = finished
                ? `the run is over (${probe?.operation}) but ${failures} connections in a row brought no terminal event`
                : `${failures} drops in a row`;
              throw new ConnectionError(`${id}: ${what}; resume with { lastSeq: ${stream.lastSeq} }`, {
                operationId: id,
                cause: reason,
                attempts: failures,
                lastSeq: stream.lastSeq,
              });
            }
          }
          attempt++;
          const delayMs = reconnectDelay(empties, delays, retryMs, (reason as ApiError | undefined)?.retryAfterMs);
          options.onReconnect?.({ attempt, lastSeq: stream.lastSeq, delayMs, reason, counted: !fresh && counted });
          await sleep(delayMs, user);
        }
      },
    };
    return stream;
  };

/** `eventStream` checking events with `checkEvent`: what code generated before revision 5 passes (it has no `check`). */
export const eventStreamKind = (probe: (() => StatusOperation) | undefined): OperationKind =>
  eventStream(probe, checkEvent);
