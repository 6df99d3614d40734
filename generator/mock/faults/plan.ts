/**
 * What one stream connection will do: the faults of every spec that applies
 * to it, with ranges drawn (seeded) into plain numbers. Specs are given
 * from the most general to the most specific (the server's `--fault`, the
 * script's, the create-run request's, then the stream request's and the
 * test queue's); a fault named again in a more specific spec replaces the
 * earlier one.
 */
import { between, drawFor } from "./seeded.js";
import type { ConnectionFault, FaultSpec, Range } from "./spec.js";

export interface ConnectionPlan {
  /** After this many frames: reset the socket. */
  readonly dropAfter?: number;
  /** After this many frames: write part of the next (`cutAt` in [0, 1) of its bytes, at least one byte, never all) and reset. */
  readonly cutFrame?: { readonly frames: number; readonly cutAt: number };
  /** After this many body bytes: reset. */
  readonly cutBytes?: number;
  /** After this many frames: end the response cleanly. */
  readonly endClean?: number;
  /** After this many frames: write nothing more, the socket open. */
  readonly stall?: number;
  readonly heartbeatMs?: number;
  readonly delayMs?: number;
  readonly chunkBytes?: number;
  readonly status?: { readonly status: number; readonly retryAfterSeconds?: number };
  readonly wrongType?: "html" | "json";
  /** Frames before the resume point to send again first. */
  readonly replay?: number;
  readonly ignoreResume?: "both" | "header" | "query";
  readonly eol: "\n" | "\r" | "\r\n";
  readonly bom: boolean;
  /** The faults as concrete spec items (ranges drawn), e.g. `drop-after=3,eol=crlf`: the `X-Mock-Faults` header. */
  readonly text: string;
}

/** A spec that applies to a connection, and whether all its connection faults do (one given for this connection) or only those whose `@` selects it. */
export interface PlanLayer {
  readonly spec: FaultSpec;
  readonly thisConnection: boolean;
}

const EOL = { lf: "\n", cr: "\r", crlf: "\r\n" } as const;

/** The plan of the run's `connection`-th stream connection (1-based). */
export function planConnection(layers: readonly PlanLayer[], connection: number): ConnectionPlan {
  const chosen = new Map<
    ConnectionFault["name"],
    { fault: ConnectionFault; value: (r: Range) => number; cutAt: number }
  >();
  for (const { spec, thisConnection } of layers) {
    spec.connection.forEach(({ fault, on }, index) => {
      if (!thisConnection && (connection < on.first || connection > on.last)) return;
      const draw = drawFor(spec.seed, connection, index);
      const value = (r: Range): number => (r.min === r.max ? r.min : between(draw, r.min, r.max));
      chosen.set(fault.name, { fault, value, cutAt: draw() });
    });
  }
  const plan: { -readonly [K in keyof ConnectionPlan]: ConnectionPlan[K] } = { eol: "\n", bom: false, text: "" };
  const items: string[] = [];
  let retryAfterSeconds: number | undefined;
  // Sorted by name: the header reads the same whatever order the specs gave.
  for (const name of [...chosen.keys()].sort()) {
    const { fault, value, cutAt } = chosen.get(name)!;
    switch (fault.name) {
      case "drop-after":
        items.push(`${fault.name}=${(plan.dropAfter = value(fault.frames))}`);
        break;
      case "cut-frame":
        plan.cutFrame = { frames: value(fault.frames), cutAt };
        items.push(`${fault.name}=${plan.cutFrame.frames}`);
        break;
      case "end-clean":
        items.push(`${fault.name}=${(plan.endClean = value(fault.frames))}`);
        break;
      case "stall":
        items.push(`${fault.name}=${(plan.stall = value(fault.frames))}`);
        break;
      case "replay":
        items.push(`${fault.name}=${(plan.replay = value(fault.frames))}`);
        break;
      case "cut-bytes":
        items.push(`${fault.name}=${(plan.cutBytes = value(fault.bytes))}`);
        break;
      case "chunk":
        items.push(`${fault.name}=${(plan.chunkBytes = value(fault.bytes))}`);
        break;
      case "heartbeat":
        items.push(`${fault.name}=${(plan.heartbeatMs = value(fault.ms))}`);
        break;
      case "delay":
        items.push(`${fault.name}=${(plan.delayMs = value(fault.ms))}`);
        break;
      case "retry-after":
        items.push(`${fault.name}=${(retryAfterSeconds = value(fault.seconds))}`);
        break;
      case "status":
        plan.status = { status: fault.status };
        items.push(`${fault.name}=${fault.status}`);
        break;
      case "wrong-type":
        items.push(`${fault.name}=${(plan.wrongType = fault.body)}`);
        break;
      case "ignore-resume":
        items.push(`${fault.name}=${(plan.ignoreResume = fault.which)}`);
        break;
      case "eol":
        plan.eol = EOL[fault.eol];
        items.push(`${fault.name}=${fault.eol}`);
        break;
      case "bom":
        plan.bom = true;
        items.push(fault.name);
        break;
    }
  }
  // (A Retry-After without a status this connection, e.g. `status@1,retry-after=2@*`, has nothing to go with.)
  if (plan.status !== undefined && retryAfterSeconds !== undefined) plan.status = { ...plan.status, retryAfterSeconds };
  plan.text = items.join(",");
  return plan;
}
