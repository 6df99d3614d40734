/**
 * The suite's cases and how each is checked against the adapters; a check
 * returns what is wrong, or undefined. The case formats are
 * generated/fixtures/README.md's.
 */
import { deepEqual } from "../../runtime/validation/helpers.js";
import type { ConformanceAdapters, SuiteSseMessage, ValidationLevel, Verdict } from "./adapters.js";
import type { LoadedSuite, Tier } from "./suite.js";

export interface SuiteCase {
  readonly id: string;
  readonly tier: Tier;
  check(adapters: ConformanceAdapters): Promise<string | undefined>;
}

interface MessageTest {
  description: string;
  tier: Tier;
  data: unknown;
  valid: boolean;
  rule?: string;
}
interface MessageGroup {
  schema: string;
  tests: MessageTest[];
}
interface SseCase {
  description: string;
  tier: Tier;
  input: { text: string } | { base64: string };
  chunks?: string[];
  messages: SuiteSseMessage[];
  events?: unknown[];
  shapes?: Array<"envelope" | "flat">;
}
interface FlowMessage {
  body?: unknown;
  bodySchema?: string;
}
interface Flow {
  description: string;
  tier: Tier;
  steps: Array<{
    kind: string;
    stream?: string;
    runId?: string;
    request?: FlowMessage;
    response?: FlowMessage;
    events?: Array<{ seq: number }>;
    sse?: string;
  }>;
  runs: Array<{ runId: string; events: unknown[] }>;
}

const COMPONENT = "#/components/schemas/";
const encoder = new TextEncoder();

/** Base64 without Buffer or atob (neither is everywhere). */
function base64Bytes(text: string): Uint8Array {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const clean = text.replace(/=+$/, "");
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let n = 0;
  for (const ch of clean) {
    const v = alphabet.indexOf(ch);
    if (v < 0) throw new Error(`not base64: ${JSON.stringify(ch)}`);
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (value >> bits) & 0xff;
    }
  }
  return out;
}

async function judge(
  a: ConformanceAdapters,
  level: ValidationLevel,
  pointer: string | undefined,
  data: unknown,
  valid: boolean,
  rule?: string,
): Promise<string | undefined> {
  if (pointer === undefined || !pointer.startsWith(COMPONENT))
    return `schema ${JSON.stringify(pointer)} is not a component pointer`;
  const component = pointer.slice(COMPONENT.length);
  const answer = await a.validate(level, component, data);
  const verdict: Verdict = typeof answer === "boolean" ? { valid: answer } : answer;
  if (verdict.valid !== valid) {
    return valid
      ? `expected valid (${component}, ${level}), the validator rejects it${verdict.rules !== undefined ? ` (${verdict.rules.join(", ")})` : ""}`
      : `expected invalid (${component}, ${level}: rule ${rule}), the validator accepts it`;
  }
  if (!valid && rule !== undefined && verdict.rules !== undefined && !verdict.rules.includes(rule))
    return `expected rule ${rule} among ${verdict.rules.join(", ")}`;
  return undefined;
}

function chunkings(c: SseCase): Array<[string, Uint8Array[]]> {
  const body = "text" in c.input ? encoder.encode(c.input.text) : base64Bytes(c.input.base64);
  const out: Array<[string, Uint8Array[]]> = [["whole", [body]]];
  if (c.chunks !== undefined) out.push(["given chunks", c.chunks.map(base64Bytes)]);
  out.push(["one byte per chunk", Array.from(body, (b) => Uint8Array.of(b))]);
  return out;
}

/** A message as the suite writes it: `retry` only when set. */
const plain = (m: SuiteSseMessage): SuiteSseMessage => ({
  event: m.event,
  data: m.data,
  id: m.id,
  ...(m.retry !== undefined ? { retry: m.retry } : {}),
});

async function checkSse(a: ConformanceAdapters, c: SseCase): Promise<string | undefined> {
  for (const [how, chunks] of chunkings(c)) {
    const got = (await a.decodeSse(chunks)).map(plain);
    if (!deepEqual(got, c.messages))
      return `${how}: decoded ${JSON.stringify(got)}, want ${JSON.stringify(c.messages)}`;
  }
  if (c.events === undefined) return undefined;
  for (const [i, want] of c.events.entries()) {
    const message = c.messages[i]!;
    const { event, shape } = await a.decodeEvent(JSON.parse(message.data), message.event);
    if (!deepEqual(event, want))
      return `message ${i}: typed event ${JSON.stringify(event)}, want ${JSON.stringify(want)}`;
    const wantShape = c.shapes?.[i] ?? "envelope";
    if (shape !== wantShape) return `message ${i}: read as a ${shape} frame, the case says ${wantShape}`;
    const problem = await judge(a, "receive", `${COMPONENT}AgentRunEvent`, event, true);
    if (problem !== undefined) return `message ${i}: ${problem}`;
  }
  return undefined;
}

async function checkFlow(a: ConformanceAdapters, flow: Flow): Promise<string | undefined> {
  const streams = new Map<string, string>();
  const delivered = new Map<string, Array<{ seq: number }>>();
  for (const [i, step] of flow.steps.entries()) {
    const at = `step ${i} (${step.kind})`;
    if (step.kind === "http" || step.kind === "open-stream") {
      for (const [side, m] of [
        ["request", step.request],
        ["response", step.response],
      ] as const) {
        if (m?.body === undefined) continue;
        const problem = await judge(a, "strict", m.bodySchema, m.body, true);
        if (problem !== undefined) return `${at} ${side} body: ${problem}`;
      }
      if (step.kind === "open-stream") streams.set(step.stream!, step.runId!);
    } else if (step.kind === "receive") {
      const runId = streams.get(step.stream!);
      if (runId === undefined) return `${at}: stream ${step.stream} is not open`;
      const messages = await a.decodeSse([encoder.encode(step.sse ?? "")]);
      const events = step.events ?? [];
      if (messages.length !== events.length)
        return `${at}: decoded ${messages.length} messages for ${events.length} events`;
      const seen = delivered.get(runId) ?? [];
      delivered.set(runId, seen);
      for (const [j, want] of events.entries()) {
        const { event } = await a.decodeEvent(JSON.parse(messages[j]!.data), messages[j]!.event);
        if (!deepEqual(event, want))
          return `${at}: message ${j} decodes to ${JSON.stringify(event)}, want ${JSON.stringify(want)}`;
        const problem = await judge(a, "strict", `${COMPONENT}AgentRunEvent`, event, true);
        if (problem !== undefined) return `${at}: message ${j}: ${problem}`;
        if (!seen.some((s) => s.seq === want.seq)) seen.push(want);
      }
    } else if (step.kind === "stream-end") {
      if (!streams.delete(step.stream!)) return `${at}: stream ${step.stream} is not open`;
    } else return `${at}: unknown step kind`;
  }
  for (const run of flow.runs) {
    if (!deepEqual(delivered.get(run.runId) ?? [], run.events))
      return `run ${run.runId}: its transcript is not what the streams delivered, each seq once`;
    if (a.checkTranscript === undefined) continue;
    const broken = await a.checkTranscript({ events: run.events });
    if (broken.length > 0) return `run ${run.runId}: its transcript breaks the sequence rules ${broken.join(", ")}`;
  }
  return undefined;
}

async function checkTranscript(a: ConformanceAdapters, t: MessageTest): Promise<string | undefined> {
  if (a.checkTranscript === undefined) return "no checkTranscript adapter: the SDK does not check the sequence rules";
  const broken = await a.checkTranscript(t.data);
  if (t.valid && broken.length > 0) return `expected every rule kept, the checker reports ${broken.join(", ")}`;
  if (!t.valid && !broken.includes(t.rule ?? ""))
    return `expected rule ${t.rule} broken, the checker reports ${broken.join(", ") || "none"}`;
  return undefined;
}

/** Every case of the suite, in file order. */
export function suiteCases(suite: LoadedSuite): SuiteCase[] {
  const out: SuiteCase[] = [];
  for (const file of suite.files("messages/")) {
    for (const g of suite.json(file) as MessageGroup[]) {
      for (const t of g.tests)
        out.push({
          id: `${file}::${t.description}`,
          tier: t.tier,
          check: (a) => judge(a, t.tier as ValidationLevel, g.schema, t.data, t.valid, t.rule),
        });
    }
  }
  for (const file of suite.files("sse/"))
    for (const c of suite.json(file) as SseCase[])
      out.push({ id: `${file}::${c.description}`, tier: c.tier, check: (a) => checkSse(a, c) });
  for (const file of suite.files("flows/")) {
    const f = suite.json(file) as Flow;
    out.push({ id: `${file}::${f.description}`, tier: f.tier, check: (a) => checkFlow(a, f) });
  }
  for (const g of suite.json("transcripts.json") as MessageGroup[])
    for (const t of g.tests)
      out.push({ id: `transcripts.json::${t.description}`, tier: t.tier, check: (a) => checkTranscript(a, t) });
  return out;
}
