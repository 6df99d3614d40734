/**
 * The fault spec language, one syntax for every way to ask for a fault (the
 * `--fault` flag, a script's `faults` field, the `X-Mock-Fault` header and
 * the `?mockFault=` query parameter, the test API's queue):
 *
 *   spec  := item ("," item)*
 *   item  := name ["=" value] ["@" on]
 *   value := N | LO "-" HI          (a range: drawn per connection, from `seed`)
 *          | a word (`html`, `crlf`, …)
 *   on    := N | N "-" M | N "-" | "*"   (which of the run's stream connections, 1-based; default 1)
 *
 * e.g. `drop-after=3`, `drop-after=1-5@*,seed=7`, `status=503,retry-after=1`,
 * `eol=crlf@*,bom@*,chunk=3@*`. Names and what they do: ./catalog.ts.
 * Anything else is a FaultSpecError whose message says what is wrong and
 * what is allowed (the server answers it with 400).
 */
import { catalogEntry, FAULT_CATALOG, type FaultName } from "./catalog.js";
import { drawMix } from "./mix.js";

/** Inclusive; a fixed value has `min === max`. */
export interface Range {
  readonly min: number;
  readonly max: number;
}

/** The run's stream connections a fault applies to, 1-based, inclusive (`last` may be Infinity). */
export interface Connections {
  readonly first: number;
  readonly last: number;
}

export type ConnectionFault =
  | { readonly name: "drop-after" | "cut-frame" | "end-clean" | "stall" | "replay"; readonly frames: Range }
  | { readonly name: "cut-bytes" | "chunk"; readonly bytes: Range }
  | { readonly name: "heartbeat" | "delay"; readonly ms: Range }
  | { readonly name: "status"; readonly status: number }
  | { readonly name: "retry-after"; readonly seconds: Range }
  | { readonly name: "wrong-type"; readonly body: "html" | "json" }
  | { readonly name: "ignore-resume"; readonly which: "both" | "header" | "query" }
  | { readonly name: "eol"; readonly eol: "cr" | "lf" | "crlf" }
  | { readonly name: "bom" };

export type RunFault =
  | { readonly name: "unknown-event" | "malformed-frame"; readonly after: Range }
  | { readonly name: "duplicate-call" };

/** A parsed spec. */
export interface FaultSpec {
  /** Connection faults, each with the connections it applies to (for a spec given on one connection: that one). */
  readonly connection: ReadonlyArray<{ readonly fault: ConnectionFault; readonly on: Connections }>;
  readonly run: readonly RunFault[];
  /** Seeds the ranges and the cut offsets (default 0). */
  readonly seed: number;
  /** The items (with `mix` expanded), for logs. */
  readonly text: string;
  /** The text exactly as given. */
  readonly given: string;
}

/**
 * Where a spec comes from: `run` (the flag, a script, the create-run
 * request: every fault, `@` selects connections) or `connection` (a
 * stream request, the test queue: connection faults only, for that one
 * connection).
 */
export type SpecContext = "run" | "connection";

/** A spec that cannot be used; `message` names its source, the item and what is allowed. */
export class FaultSpecError extends Error {
  override readonly name = "FaultSpecError";
  readonly code = "invalid-fault-spec";
  constructor(
    message: string,
    /** Where the spec came from, e.g. `X-Mock-Fault header`. */
    readonly source: string,
  ) {
    super(`${source}: ${message}`);
  }
}

export function isFaultSpecError(error: unknown): error is FaultSpecError {
  return error instanceof Error && (error as { code?: unknown }).code === "invalid-fault-spec";
}

export const NO_FAULTS: FaultSpec = { connection: [], run: [], seed: 0, text: "", given: "" };

/** Bounds of values: large enough for any test, small enough that a typo cannot pin the server. */
const MAX_FRAMES = 1_000_000;
const MAX_MS = 600_000;
const MAX_CHUNK = 65_536;
const MAX_RETRY_AFTER = 100_000_000;
const MAX_SEED = 0xffff_ffff;
const MAX_SPEC_LENGTH = 2_000;
const ALL_CONNECTIONS: Connections = { first: 1, last: Infinity };
const FIRST_CONNECTION: Connections = { first: 1, last: 1 };

const known = FAULT_CATALOG.map((f) => f.name).join(", ");

/** Parses `text` (empty: no faults). Throws FaultSpecError. */
export function parseFaultSpec(text: string, source: string, context: SpecContext): FaultSpec {
  const fail = (message: string): never => {
    throw new FaultSpecError(message, source);
  };
  if (text.length > MAX_SPEC_LENGTH) fail(`a fault spec is at most ${MAX_SPEC_LENGTH} characters`);
  if (text.trim() === "") return NO_FAULTS;
  const items = text.split(",").map((s) => s.trim());
  const connection: Array<{ fault: ConnectionFault; on: Connections }> = [];
  const run: RunFault[] = [];
  const seen = new Map<string, string>();
  let seed: number | undefined;
  let mixed: FaultSpec | undefined;
  for (const item of items) {
    if (item === "") fail(`an empty item in ${JSON.stringify(text)} (items are separated by single commas)`);
    const m = /^([a-z][a-z-]*)(?:=([^@]*))?(?:@(.*))?$/.exec(item);
    if (m === null) fail(`${JSON.stringify(item)} is not name[=value][@connections] (e.g. drop-after=3, eol=crlf@*)`);
    const [, name, value, on] = m as unknown as [string, string, string | undefined, string | undefined];
    const entry = catalogEntry(name);
    if (entry === undefined) fail(`unknown fault ${JSON.stringify(name)}; known: ${known}`);
    if (seen.has(name)) fail(`${name} is given twice (${seen.get(name)}, ${item})`);
    seen.set(name, item);
    const where = `${name}${entry!.value === "" ? "" : `=${entry!.value}`}`;
    if (entry!.value === "" && value !== undefined) fail(`${name} takes no value, got ${JSON.stringify(item)}`);
    if (entry!.value !== "" && value === undefined && !hasDefault(name)) fail(`${name} needs a value: ${where}`);
    if (entry!.scope !== "connection" && on !== undefined) {
      fail(
        `${name} ${entry!.scope === "run" ? "changes the run's events, which every connection sees" : "is a setting of the whole spec"}: it takes no @connections`,
      );
    }
    if (context === "connection") {
      if (entry!.scope === "run" || name === "mix") {
        fail(
          `${name} changes the run's events: give it when the run is created (X-Mock-Fault or ?mockFault= on the create-run request, a script's faults, --fault), not for one stream connection`,
        );
      }
      if (on !== undefined)
        fail(
          `${item}: a fault given for one stream connection applies to that connection; @connections is for the create-run request`,
        );
    }
    const number = (raw: string | undefined, max: number, min = 0): Range => rangeOf(raw, min, max, where, fail);
    switch (name as FaultName) {
      case "seed":
        seed = number(value, MAX_SEED).min;
        if (value!.includes("-")) fail(`seed=N wants one number, got ${JSON.stringify(value)}`);
        break;
      case "mix": {
        const n = number(value, MAX_SEED).min;
        if (value!.includes("-")) fail(`mix=N wants one number, got ${JSON.stringify(value)}`);
        mixed = parseFaultSpec(drawMix(n), `${source} (mix=${n})`, context);
        break;
      }
      case "unknown-event":
      case "malformed-frame":
        run.push({ name: name as "unknown-event", after: number(value, MAX_FRAMES) });
        break;
      case "duplicate-call":
        run.push({ name: "duplicate-call" });
        break;
      default: {
        const fault = connectionFault(name as ConnectionFault["name"], value, where, number, fail);
        connection.push({ fault, on: on === undefined ? FIRST_CONNECTION : connectionsOf(on, item, fail) });
      }
    }
  }
  if (
    seen.has("retry-after") &&
    !seen.has("status") &&
    !(mixed?.connection.some((c) => c.fault.name === "status") ?? false)
  ) {
    fail("retry-after=S goes with status=429|5xx (it is that answer's Retry-After header)");
  }
  const explicit = new Set(seen.keys());
  const spec: FaultSpec = {
    // A drawn combination first; an item given by name replaces the drawn one of that name.
    connection: [...(mixed?.connection.filter((c) => !explicit.has(c.fault.name)) ?? []), ...connection],
    run: [...(mixed?.run.filter((r) => !explicit.has(r.name)) ?? []), ...run],
    seed: seed ?? mixed?.seed ?? 0,
    text: mixed === undefined ? items.join(",") : [mixed.text, ...items.filter((i) => !i.startsWith("mix="))].join(","),
    given: text,
  };
  return spec;
}

/** Values a fault may omit: `chunk` (1 byte), `wrong-type` (html), `ignore-resume` (both). */
function hasDefault(name: string): boolean {
  return name === "chunk" || name === "wrong-type" || name === "ignore-resume";
}

function connectionFault(
  name: ConnectionFault["name"],
  value: string | undefined,
  where: string,
  number: (raw: string | undefined, max: number, min?: number) => Range,
  fail: (message: string) => never,
): ConnectionFault {
  const word = <W extends string>(words: readonly W[], fallback: W): W => {
    if (value === undefined) return fallback;
    if ((words as readonly string[]).includes(value)) return value as W;
    return fail(`${where}: ${JSON.stringify(value)} is not one of ${words.join(", ")}`);
  };
  switch (name) {
    case "drop-after":
    case "cut-frame":
    case "end-clean":
    case "stall":
    case "replay":
      return { name, frames: number(value, MAX_FRAMES) };
    case "cut-bytes":
      return { name, bytes: number(value, MAX_FRAMES * 100, 1) };
    case "chunk":
      return { name, bytes: value === undefined ? { min: 1, max: 1 } : number(value, MAX_CHUNK, 1) };
    case "heartbeat":
      return { name, ms: number(value, MAX_MS, 5) };
    case "delay":
      return { name, ms: number(value, MAX_MS) };
    case "retry-after":
      return { name, seconds: number(value, MAX_RETRY_AFTER) };
    case "status": {
      const status = /^\d{3}$/.test(value!) ? Number(value) : NaN;
      if (!(status === 429 || (status >= 500 && status <= 599)))
        fail(`${where}: ${JSON.stringify(value)} is not 429 or a 5xx status (the answers a client retries)`);
      return { name, status };
    }
    case "wrong-type":
      return { name, body: word(["html", "json"], "html") };
    case "ignore-resume":
      return { name, which: word(["both", "header", "query"], "both") };
    case "eol":
      return { name, eol: word(["cr", "lf", "crlf"], "lf") };
    case "bom":
      return { name };
  }
}

function rangeOf(
  raw: string | undefined,
  min: number,
  max: number,
  where: string,
  fail: (message: string) => never,
): Range {
  const m = /^(\d{1,10})(?:-(\d{1,10}))?$/.exec(raw ?? "");
  if (m === null) return fail(`${where}: ${JSON.stringify(raw)} is not a whole number or a range LO-HI`);
  const lo = Number(m[1]);
  const hi = m[2] === undefined ? lo : Number(m[2]);
  if (lo > hi) fail(`${where}: the range ${raw} runs backwards (LO-HI with LO <= HI)`);
  if (lo < min || hi > max) fail(`${where}: ${raw} is outside ${min} to ${max}`);
  return { min: lo, max: hi };
}

function connectionsOf(raw: string, item: string, fail: (message: string) => never): Connections {
  if (raw === "*") return ALL_CONNECTIONS;
  const m = /^(\d{1,6})(-(\d{1,6})?)?$/.exec(raw);
  const first = m === null ? 0 : Number(m[1]);
  const last = m === null ? 0 : m[2] === undefined ? first : m[3] === undefined ? Infinity : Number(m[3]);
  if (m === null || first < 1 || last < first) {
    fail(`${item}: @${raw} is not a connection number or range (1-based: @2, @1-3, @2-, @*)`);
  }
  return { first, last };
}
