/**
 * One stream connection, served from the run's stored log under a
 * ConnectionPlan (a fault-free connection is the empty plan): the answer
 * instead of a stream (`status`, `wrong-type`), where the frames start
 * (the resume point, `ignore-resume`, `replay`), when the connection stops
 * (`drop-after`, `cut-frame`, `end-clean`, `stall`, or the terminal event,
 * after which the server closes as the documents say), and the socket
 * writes (./socket-writer.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ConnectionPlan } from "./plan.js";
import { SocketWriter } from "./socket-writer.js";

/** What a connection streams from: the run's log, which grows while the run is live. */
export interface StreamedRun<Entry extends { readonly seq: number; readonly type: string }> {
  readonly events: readonly Entry[];
  readonly done: boolean;
  /** Calls `listener` at every change (a new event, the end); returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

/** How a connection ended, for the test API's connection records. */
export type ConnectionEnd =
  /** The terminal event was written, then the response ended. */
  | "terminal"
  /** Resumed at or past the terminal event: nothing to send, ended. */
  | "caught-up"
  | "dropped"
  | "cut"
  | "ended-clean"
  | "stalled"
  | "status"
  | "wrong-type"
  /** The client went away first. */
  | "client-closed";

/** What a mock's connection record keeps of how it ended. */
export interface ConnectionOutcome {
  end: ConnectionEnd | undefined;
  frames: number;
  writes: number;
}

/** `onEnd` that writes how the connection ended into `record` (both mocks keep one per stream connection). */
export const recordEnd =
  (record: ConnectionOutcome) =>
  (end: ConnectionEnd, frames: number, writes: number): void => {
    record.end = end;
    record.frames = frames;
    record.writes = writes;
  };

export interface ServeStreamOptions<Entry extends { readonly seq: number; readonly type: string }> {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly run: StreamedRun<Entry>;
  readonly plan: ConnectionPlan;
  /** The SSE frame of an entry, with `\n` line ends. */
  readonly frame: (entry: Entry) => string;
  readonly isTerminal: (entry: Entry) => boolean;
  /** `retry:` at the start of the stream, in ms. */
  readonly retryMs?: number | undefined;
  /** Headers of the 200 stream answer besides the content type. */
  readonly headers: Record<string, string>;
  /** The stream answer's status. Default 200. */
  readonly status?: number | undefined;
  /** Answers with an error body instead of the stream (`status`): the server's own error answer. */
  readonly refuse: (status: number, body: object, headers: Record<string, string>) => void;
  /** The body of a `429` in the run's edition (./editions.ts). */
  readonly rateLimitedBody: object;
  /** Called when the 200 stream answer's headers are sent. */
  readonly onOpen?: (() => void) | undefined;
  /** Called once, when the connection is over (or stalled for good). */
  readonly onEnd?: ((end: ConnectionEnd, framesSent: number, socketWrites: number) => void) | undefined;
}

/** Frames written in one socket write, at most (about). */
const BATCH_BYTES = 32 * 1024;

const LOGIN_PAGE = "<!doctype html><title>Sign in</title><form>…</form>";

/** The first seq to send after: the resume hint the plan lets through (`Last-Event-ID` first, then `?lastSeq=`), else 0. */
export function resumePoint(req: IncomingMessage, url: URL, plan: ConnectionPlan): number {
  const ignored = plan.ignoreResume;
  const header =
    ignored === "both" || ignored === "header" ? undefined : (req.headers["last-event-id"] as string | undefined);
  const query = ignored === "both" || ignored === "query" ? undefined : (url.searchParams.get("lastSeq") ?? undefined);
  const hint = header ?? query;
  return hint !== undefined && /^\d{1,15}$/.test(hint.trim()) ? Number(hint.trim()) : 0;
}

/** Serves the connection; resolves when it is over. `after`: resumePoint(). */
export async function serveStream<Entry extends { readonly seq: number; readonly type: string }>(
  options: ServeStreamOptions<Entry>,
  after: number,
): Promise<void> {
  const { req, res, run, plan } = options;
  let ended = false;
  let sent = 0;
  let writer: SocketWriter | undefined;
  const finish = (end: ConnectionEnd): void => {
    if (ended) return;
    ended = true;
    options.onEnd?.(end, sent, writer?.writes ?? 0);
  };
  const faultsHeader: Record<string, string> = plan.text === "" ? {} : { "x-mock-faults": plan.text };

  if (plan.status !== undefined) {
    const { status, retryAfterSeconds } = plan.status;
    const headers = {
      ...faultsHeader,
      ...(retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) }),
    };
    options.refuse(
      status,
      status === 429 ? options.rateLimitedBody : { error: "server_error", message: `mock fault status=${status}` },
      headers,
    );
    return finish("status");
  }
  if (plan.wrongType !== undefined) {
    const json = plan.wrongType === "json";
    res.writeHead(200, { ...faultsHeader, "content-type": json ? "application/json" : "text/html; charset=utf-8" });
    res.end(json ? JSON.stringify({ message: "Please sign in" }) : LOGIN_PAGE);
    return finish("wrong-type");
  }

  res.writeHead(options.status ?? 200, {
    ...options.headers,
    ...faultsHeader,
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
  });
  res.flushHeaders();
  options.onOpen?.();
  writer = new SocketWriter(res, plan);
  let wake: (() => void) | undefined;
  const nudge = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const cleanups: Array<() => void> = [nudge];
  const stop = (): void => {
    for (const c of cleanups.splice(0)) c();
  };
  res.once("close", () => {
    stop();
    finish("client-closed");
  });
  req.once("close", nudge);

  let stalled = false;
  if (plan.heartbeatMs !== undefined) {
    const beat = setInterval(() => {
      if (!stalled) void writer.text(": ping\n\n");
    }, plan.heartbeatMs);
    cleanups.push(() => clearInterval(beat));
  }
  /** Until the run changes (or the connection closes). */
  const changed = (): Promise<void> =>
    new Promise((resolve) => {
      const off = run.onChange(nudge);
      wake = () => {
        off();
        resolve();
      };
    });
  const pause = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(nudge, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const lost = (): void => {
    stop();
    finish(writer.wasReset ? "cut" : "client-closed");
  };
  if (plan.bom && !(await writer.raw(new Uint8Array([0xef, 0xbb, 0xbf])))) return lost();
  if (options.retryMs !== undefined && !(await writer.text(`retry: ${options.retryMs}\n\n`))) return lost();
  if (plan.delayMs !== undefined && plan.delayMs > 0) await pause(plan.delayMs);

  let cursor = run.events.findIndex((e) => e.seq > after);
  if (cursor < 0) cursor = run.events.length;
  cursor = Math.max(0, cursor - (plan.replay ?? 0));
  // Frames go out in batches (one socket write for many frames: a long
  // replay costs a few writes, not one per frame), except under `chunk`,
  // whose pieces are per frame. Every stop writes the batch first.
  const batchLimit = plan.chunkBytes === undefined ? BATCH_BYTES : 0;
  let batch = "";
  const flush = async (): Promise<boolean> => {
    if (batch === "") return !writer!.closed;
    const text = batch;
    batch = "";
    return writer!.text(text);
  };
  for (;;) {
    if (writer.closed) return lost();
    if (cursor >= run.events.length) {
      if (!(await flush())) return lost();
      // (The log may have grown while the batch was written.)
      if (cursor < run.events.length) continue;
      if (run.done) {
        // Resumed after the terminal event: nothing more will come.
        await writer.end();
        stop();
        return finish("caught-up");
      }
      await changed();
      continue;
    }
    if (plan.stall !== undefined && sent >= plan.stall) {
      if (!(await flush())) return lost();
      // Silent from now on (heartbeats too); the connection stays open until the client gives up.
      stalled = true;
      return finish("stalled");
    }
    if (plan.dropAfter !== undefined && sent >= plan.dropAfter) {
      if (!(await flush())) return lost();
      writer.reset();
      stop();
      return finish("dropped");
    }
    if (plan.endClean !== undefined && sent >= plan.endClean) {
      if (!(await flush())) return lost();
      await writer.end();
      stop();
      return finish("ended-clean");
    }
    const entry = run.events[cursor++]!;
    if (plan.cutFrame !== undefined && sent >= plan.cutFrame.frames) {
      if (!(await flush())) return lost();
      await writer.text(options.frame(entry), { cutAt: plan.cutFrame.cutAt });
      return lost();
    }
    batch += options.frame(entry);
    sent++;
    if (options.isTerminal(entry)) {
      if (!(await flush())) return lost();
      // The server closes right after the terminal event (http-surface.md, "SSE facts").
      await writer.end();
      stop();
      return finish("terminal");
    }
    if (batch.length >= batchLimit && !(await flush())) return lost();
  }
}
