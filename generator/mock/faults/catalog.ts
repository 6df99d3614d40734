/**
 * Every fault the mock can inject, as data: its name, the value it takes,
 * whether it acts on one stream connection or on the run's event log, what
 * it does and what a correct client does about it. The parser reads names
 * and scopes from here (so an error lists what exists), and the README's
 * fault table shows the same rows (test/mock/fault-readme.test.ts keeps
 * them equal).
 */

/** `connection`: one stream connection's frames and socket writes. `run`: the run's stored events (every connection sees them). `spec`: a setting of the whole spec. */
export type FaultScope = "connection" | "run" | "spec";

export interface FaultEntry {
  readonly name: string;
  /** The value's syntax, as the README shows it (`""`: the fault takes no value). */
  readonly value: string;
  readonly scope: FaultScope;
  /** What the mock does. */
  readonly does: string;
  /** What a correct client does. */
  readonly clientMust: string;
}

export const FAULT_CATALOG = [
  {
    name: "drop-after",
    value: "K",
    scope: "connection",
    does: "resets the connection after K frames (no chunked terminator: a network drop)",
    clientMust: "reconnect with `Last-Event-ID` / `?lastSeq=` of the last event it delivered; deliver nothing twice",
  },
  {
    name: "cut-frame",
    value: "K",
    scope: "connection",
    does: "after K frames, writes part of the next frame (a seeded byte offset inside it), then resets",
    clientMust: "never deliver the partial frame; reconnect and get it whole",
  },
  {
    name: "cut-bytes",
    value: "N",
    scope: "connection",
    does: "resets the connection after N body bytes (any offset: mid-field, mid-line, between the two line ends)",
    clientMust: "as for `cut-frame`",
  },
  {
    name: "end-clean",
    value: "K",
    scope: "connection",
    does: "ends the response cleanly after K frames, without the terminal event",
    clientMust: "treat it as a drop and reconnect; never end the stream quietly short",
  },
  {
    name: "stall",
    value: "K",
    scope: "connection",
    does: "after K frames writes nothing more (heartbeats included), the socket left open",
    clientMust: "notice the silence (an idle timeout) and reconnect",
  },
  {
    name: "heartbeat",
    value: "MS",
    scope: "connection",
    does: "writes a `: ping` comment every MS ms while the connection is open (and not stalled)",
    clientMust: "ignore comments; count them as activity (they reset an idle timeout)",
  },
  {
    name: "delay",
    value: "MS",
    scope: "connection",
    does: "holds the first frame back for MS ms (with `heartbeat`: a quiet stretch kept alive)",
    clientMust: "wait; with heartbeats, not reconnect",
  },
  {
    name: "chunk",
    value: "N",
    scope: "connection",
    does: "writes every frame in N-byte pieces, one socket write each (UTF-8 sequences and CRLF pairs split)",
    clientMust: "reassemble lines and characters across chunks",
  },
  {
    name: "status",
    value: "429|5xx",
    scope: "connection",
    does: "answers the stream request with that status and an error body instead of the stream",
    clientMust: "retry (after `Retry-After` when given), resuming where it was",
  },
  {
    name: "retry-after",
    value: "S",
    scope: "connection",
    does: "adds `Retry-After: S` to the `status` answer (needs `status`)",
    clientMust:
      "wait at least S seconds before that retry, up to 60 (a longer wait is not honoured: the client's own back-off applies)",
  },
  {
    name: "wrong-type",
    value: "html|json",
    scope: "connection",
    does: "answers `200` with a login page (`text/html`, the default) or a JSON body instead of `text/event-stream`",
    clientMust:
      "fail the stream at once (WHATWG SSE: fail the connection) with a typed error naming the content type, without reading the body; no reconnect",
  },
  {
    name: "replay",
    value: "K",
    scope: "connection",
    does: "resends the K frames before the resume point first (at-least-once delivery)",
    clientMust: "drop events whose `seq` it already delivered",
  },
  {
    name: "ignore-resume",
    value: "both|header|query",
    scope: "connection",
    does: "ignores `Last-Event-ID`, `?lastSeq=` or both (the default), as a proxy stripping them; without a resume point the whole log is replayed",
    clientMust: "send both hints; drop the replayed events",
  },
  {
    name: "eol",
    value: "cr|lf|crlf",
    scope: "connection",
    does: "ends every line with CR, LF (the default) or CRLF",
    clientMust: "accept all three line endings",
  },
  {
    name: "bom",
    value: "",
    scope: "connection",
    does: "starts the body with a UTF-8 byte order mark",
    clientMust: "skip one leading BOM",
  },
  {
    name: "unknown-event",
    value: "K",
    scope: "run",
    does: "stores an event of a type no schema names (`mock_unknown_event`) after the run's K-th event (before the terminal event in a shorter run)",
    clientMust: "deliver it as an unknown event (or skip it), never fail the run",
  },
  {
    name: "malformed-frame",
    value: "K",
    scope: "run",
    does: "stores a frame whose data is not JSON (with its own `id:`) after the run's K-th event",
    clientMust:
      "report a typed decode error (thrown, delivered or skipped as the caller chose), once, also across replays",
  },
  {
    name: "duplicate-call",
    value: "",
    scope: "run",
    does: "stores every `local_tool_call` twice, the second under its own `seq`",
    clientMust: "run the tool once and POST its result once",
  },
  {
    name: "seed",
    value: "N",
    scope: "spec",
    does: "seeds the generator that picks values given as ranges (`LO-HI`) and `cut-frame` offsets (default 0), so a failing run repeats exactly",
    clientMust: "(nothing: it makes the other faults repeatable)",
  },
  {
    name: "mix",
    value: "N",
    scope: "spec",
    does: "adds a combination of 2 to 4 faults drawn from N (connection faults on the first 3 connections only, so a correct client completes); the stream's `X-Mock-Faults` header shows what it drew",
    clientMust: "everything the drawn faults ask (read `malformed-frame` with an `onInvalid` that does not throw)",
  },
] as const satisfies readonly FaultEntry[];

export type FaultName = (typeof FAULT_CATALOG)[number]["name"];

export function catalogEntry(name: string): FaultEntry | undefined {
  return FAULT_CATALOG.find((f) => f.name === name);
}
