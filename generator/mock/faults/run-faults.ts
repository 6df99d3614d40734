/**
 * The faults that change what a run stores (`unknown-event`,
 * `malformed-frame`, `duplicate-call`): every stream connection, first or
 * resumed, then sees the same log, with its own seqs, as it would from a
 * real server that sent them.
 */
import { between, drawFor } from "./seeded.js";
import type { FaultSpec, RunFault } from "./spec.js";

/** What the run stores for one event its script emits: events, and raw frames whose data is not JSON. */
export type StoredEntry =
  | { readonly type: string; readonly data: unknown }
  | { readonly type: string; readonly raw: string };

export const UNKNOWN_EVENT_TYPE = "mock_unknown_event";
/** The data of the malformed frame: not JSON, and says where it came from. */
export const MALFORMED_DATA = "{not json: the mock's malformed-frame fault";

interface Injection {
  /** After this many of the script's events. */
  readonly after: number;
  readonly entry: StoredEntry;
  done: boolean;
}

/** One run's stored-event faults. Specs from the most general to the most specific; a fault named again replaces the earlier one. */
export class RunFaults {
  private readonly injections: Injection[] = [];
  private readonly duplicateCalls: boolean;
  /** Events the script has emitted so far. */
  private emitted = 0;

  constructor(specs: readonly FaultSpec[]) {
    const chosen = new Map<RunFault["name"], { fault: RunFault; after: number }>();
    for (const spec of specs) {
      spec.run.forEach((fault, index) => {
        const draw = drawFor(spec.seed, 0, 1000 + index);
        chosen.set(fault.name, {
          fault,
          after: "after" in fault ? between(draw, fault.after.min, fault.after.max) : 0,
        });
      });
    }
    this.duplicateCalls = chosen.has("duplicate-call");
    const unknown = chosen.get("unknown-event");
    if (unknown !== undefined) {
      this.injections.push({
        after: unknown.after,
        done: false,
        entry: {
          type: UNKNOWN_EVENT_TYPE,
          data: { note: "an event type no schema names (the mock's unknown-event fault)" },
        },
      });
    }
    const malformed = chosen.get("malformed-frame");
    if (malformed !== undefined)
      this.injections.push({
        after: malformed.after,
        done: false,
        entry: { type: "assistant_delta", raw: MALFORMED_DATA },
      });
  }

  /** Whether any fault changes the run's log. */
  get any(): boolean {
    return this.duplicateCalls || this.injections.length > 0;
  }

  /**
   * What to store, in order, when the script emits `type` with `data`:
   * an injection that is due (or, before the terminal event, any not yet
   * made: a shorter run still gets it), the event itself, and again for a
   * duplicated tool call.
   */
  expand(type: string, data: unknown, terminal: boolean): StoredEntry[] {
    const out: StoredEntry[] = [];
    const due = (limit: number): void => {
      for (const i of this.injections) {
        if (!i.done && i.after <= limit) {
          i.done = true;
          out.push(i.entry);
        }
      }
    };
    due(terminal ? Infinity : this.emitted);
    out.push({ type, data });
    if (this.duplicateCalls && type === "local_tool_call") out.push({ type, data });
    this.emitted++;
    if (!terminal) due(this.emitted);
    return out;
  }
}
