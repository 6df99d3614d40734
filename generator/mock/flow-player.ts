/**
 * Playing a flow: the fixture suite's flow cases (generated/fixtures/flows,
 * format in its README) and a user's script files in the same format
 * (`mantyx-wire mock --script file.json|yaml`), chosen by a run's
 * `metadata.scenario` (the file name without its extension).
 *
 * A flow's `runs[i].events` is the transcript of its i-th run; the mock
 * replays it with its own seqs, and what a client does decides the pace:
 * - a `local_tool_call` whose `toolUseId` the transcript later mirrors in a
 *   `local_tool_result_in` waits for that tool result (at most the run's
 *   tool timeout, then the edition's timeout failure); the mirror carries
 *   what the client posted;
 * - a call the transcript never answers is not waited for (the flow's
 *   server gave up on it): a result posted later finds it expired, 409;
 * - a `cancelled` event is not sent by the script: the run waits for
 *   `POST /cancel` (at most the tool timeout, then cancels itself), which
 *   sends the edition's `cancelled`;
 * - a flow whose `receive` steps say `frames` streams in that shape.
 * The second message of a session plays the flow's second run, and so on.
 */
import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import { parseDocument } from "yaml";
import { isTerminalType } from "./artefacts.js";
import { CANCELLED, TIMED_OUT, type MockRun } from "./run-state.js";
import type { FrameShape } from "./run-state.js";
import { isFaultSpecError, parseFaultSpec, type FaultSpec } from "./faults/index.js";

type Event = { seq?: number; type: string; data?: unknown };

/** A flow, checked enough to play: each run's events and the frame shape its receive steps use. */
export interface Script {
  readonly name: string;
  readonly runs: ReadonlyArray<readonly Event[]>;
  readonly frames?: FrameShape;
  /** The script's `faults` (a fault spec, or a list of items): for every run that plays it, between `--fault` and the create-run request's own. */
  readonly faults?: FaultSpec;
}

/** One run of a script, as a MockRun plays it. */
export interface ScriptRun {
  readonly script: Script;
  readonly events: readonly Event[];
}

/** A script file or flow case that cannot be played: where, and what to fix. */
export class ScriptError extends Error {
  override readonly name = "ScriptError";
  constructor(
    readonly file: string,
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${file}${line === undefined ? "" : `:${line}:${column ?? 1}`}: ${message}`);
  }
}

/** The playable part of a flow value (`file` names it in errors). */
export function scriptOf(name: string, flow: unknown, file: string): Script {
  if (typeof flow !== "object" || flow === null || Array.isArray(flow))
    throw new ScriptError(
      file,
      "a script is a JSON object with `runs` (the flow format of the fixture suite, fixtures/README.md)",
    );
  const runs = (flow as { runs?: unknown }).runs;
  if (!Array.isArray(runs) || runs.length === 0)
    throw new ScriptError(file, "`runs` must be a non-empty array of { runId?, events: [{ type, data }] }");
  const checked = runs.map((run, i) => {
    const events = (run as { events?: unknown } | null)?.events;
    if (!Array.isArray(events) || events.length === 0)
      throw new ScriptError(file, `runs[${i}].events must be a non-empty array of { type, data }`);
    for (const [j, e] of events.entries()) {
      if (typeof e !== "object" || e === null || typeof (e as Event).type !== "string")
        throw new ScriptError(file, `runs[${i}].events[${j}] must be an object with a string \`type\``);
    }
    // A run that never ends would hold its stream open forever.
    const last = (events[events.length - 1] as Event).type;
    if (!isTerminalType(last))
      throw new ScriptError(
        file,
        `runs[${i}] must end with a terminal event (result, error or cancelled), not ${JSON.stringify(last)}`,
      );
    return events as Event[];
  });
  const steps = (flow as { steps?: unknown }).steps;
  const frames = Array.isArray(steps)
    ? (steps.find((s) => typeof s?.frames === "string") as { frames?: string } | undefined)?.frames
    : undefined;
  const faults = scriptFaults((flow as { faults?: unknown }).faults, file);
  return {
    name,
    runs: checked,
    ...(frames === "envelope" || frames === "flat" || frames === "flat-untyped" ? { frames } : {}),
    ...(faults === undefined ? {} : { faults }),
  };
}

/** A script's `faults`: a spec string (`"drop-after=3,eol=crlf@*"`) or a list of items (`["drop-after=3", "eol=crlf@*"]`). */
function scriptFaults(value: unknown, file: string): FaultSpec | undefined {
  if (value === undefined) return undefined;
  const items =
    typeof value === "string"
      ? [value]
      : Array.isArray(value) && value.every((v) => typeof v === "string")
        ? (value as string[])
        : undefined;
  if (items === undefined)
    throw new ScriptError(file, '`faults` is a fault spec ("drop-after=3,eol=crlf@*") or a list of its items');
  try {
    return parseFaultSpec(items.join(","), "faults", "run");
  } catch (error) {
    if (isFaultSpecError(error)) throw new ScriptError(file, error.message);
    throw error;
  }
}

/** A user's script file (JSON or YAML), named by its file name without the extension; errors carry the file and, for YAML and JSON syntax, line:column. */
export function loadScriptFile(path: string): Script {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ScriptError(path, `cannot read the script (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const doc = parseDocument(text, { prettyErrors: true });
  const problem = doc.errors[0];
  if (problem !== undefined) {
    const pos = problem.linePos?.[0];
    throw new ScriptError(
      path,
      `not valid ${extname(path) === ".json" ? "JSON" : "YAML"}: ${problem.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`,
      pos?.line,
      pos?.col,
    );
  }
  return scriptOf(basename(path, extname(path)), doc.toJS(), path);
}

/** Plays `script` into `run` (see the module comment). */
export async function playScript(run: MockRun, script: ScriptRun, toolTimeoutMs: number): Promise<void> {
  const events = script.events;
  const answeredLater = (i: number, id: string): boolean =>
    events
      .slice(i + 1)
      .some(
        (e) => e.type === "local_tool_result_in" && (e.data as { toolUseId?: unknown } | undefined)?.toolUseId === id,
      );
  const posted = new Map<string, { result?: string; error?: string; files?: unknown }>();
  for (const [i, event] of events.entries()) {
    if (run.done) return;
    if (event.type === "cancelled") {
      // Sent by POST /cancel (the edition's shape); the script only waits for it.
      if (await run.sleep(toolTimeoutMs)) run.cancel();
      return;
    }
    if (event.type === "local_tool_result_in") {
      const id = (event.data as { toolUseId?: string }).toolUseId ?? "";
      const answer = posted.get(id);
      if (answer === undefined) continue;
      const mirror: Record<string, unknown> = { toolUseId: id };
      if (answer.error !== undefined) mirror["error"] = answer.error;
      else mirror["result"] = answer.result;
      run.emit("local_tool_result_in", mirror);
      continue;
    }
    run.emit(event.type, event.data ?? {});
    const id =
      event.type === "local_tool_call" ? (event.data as { toolUseId?: unknown } | undefined)?.toolUseId : undefined;
    if (typeof id === "string") {
      if (!answeredLater(i, id)) {
        run.expired.add(id);
        continue;
      }
      const answer = await run.awaitTool(id, toolTimeoutMs);
      if (answer === CANCELLED) return;
      if (answer === TIMED_OUT) {
        if (run.shapes.timeoutAsErrorEvent)
          run.emit("error", {
            error: "Timed out waiting for local tool result",
            code: "local_timeout",
            errorClass: "local_timeout",
          });
        else
          run.emit("result", { subtype: "error_local_tool_timeout", error: "Timed out waiting for local tool result" });
        return;
      }
      posted.set(id, answer);
    }
  }
}
