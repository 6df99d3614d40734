/**
 * Compiles `x-transcript-rules` into TypeScript: one specialised function per
 * rule, with every selector and pointer unrolled into plain comparisons.
 * Portable output: no eval, no `new Function`, no Node APIs; its one import
 * is the runtime contract's `valueAtPointer` (codegen/v1 revision 10), the
 * JSON-pointer reading the generator's own interpreter (./interpret.ts) uses.
 * Every value from the schema reaches the code through JSON.stringify (never
 * spliced raw), the ajv `safeStringify` discipline.
 */
import {
  pointerSegments,
  type AnswersRule,
  type IncreasingRule,
  type PrecedesRule,
  type Selector,
  type TranscriptRule,
  type TranscriptRules,
} from "./rules.js";

const j = (v: unknown): string => JSON.stringify(v);

/** The revision of codegen/v1 that the module needs (runtime/codegen/v1.ts): 10, `valueAtPointer`. */
export const TRANSCRIPT_REVISION = 10;

/**
 * The module text (without the generated-file header line), importing the
 * runtime contract by `runtime` (../emit/runtime-import.ts); `check` a
 * generator name when the module checks the runtime's revision at import
 * time (`requireCodegenRevision`: a runtime imported as a package).
 */
export function compileTranscriptModule(rules: TranscriptRules, runtime: string, check?: string): string {
  const ids = [...rules.rules.map((r) => r.id), "shape"];
  const out: string[] = [];
  out.push(`/**
 * Sequence rules of a whole run transcript: the \`x-transcript-rules\` of
 * #/components/schemas/RunTranscript, compiled (one function per rule).
 *
 * Checks only what spans events. Each event's own shape is
 * \`validateAgentRunEvent\`'s job (generated/validators); run both.
 * Events may be envelopes or flattened frames (both shapes are read).
 * Portable: no eval, no runtime APIs; values are read by JSON pointer with
 * the runtime's \`valueAtPointer\`.
 */
import { ${check !== undefined ? "requireCodegenRevision, " : ""}valueAtPointer } from ${j(runtime)};
${check !== undefined ? `\nrequireCodegenRevision(${TRANSCRIPT_REVISION}, ${j(check)});\n` : ""}
/** The rule a transcript breaks: an id from the schema, or \`shape\` when it is not \`{ events: [...] }\`. */
export type TranscriptRuleId = ${ids.map(j).join(" | ")};

/** One broken rule. */
export interface TranscriptIssue {
  readonly rule: TranscriptRuleId;
  /** Index of the offending event in \`events\`, or -1 when the transcript as a whole is at fault. */
  readonly index: number;
  readonly message: string;
}

/** The verdict: \`valid\` is \`issues.length === 0\`. Never throws. */
export interface TranscriptResult {
  readonly valid: boolean;
  readonly issues: readonly TranscriptIssue[];
}

/** The rules in schema order, each with the sentence the schema states it with. */
export const transcriptRules: ReadonlyArray<{ readonly id: TranscriptRuleId; readonly description: string }> = [
${rules.rules.map((r) => `  { id: ${j(r.id)}, description: ${j(r.description)} },`).join("\n")}
];

/** Event types that end a run: the variants marked \`x-terminal: true\`. */
export const terminalEventTypes: readonly string[] = ${j(rules.terminalTypes)};

/**
 * Checks a whole run transcript (every event of one run, in order, replayed
 * duplicates removed) against the sequence rules. Expected outcomes are values:
 * a broken rule is an issue in the result, never an exception.
 */
export function validateRunTranscript(transcript: unknown): TranscriptResult {
  const events = transcript !== null && typeof transcript === "object" ? (transcript as { events?: unknown }).events : undefined;
  if (!Array.isArray(events)) {
    return { valid: false, issues: [{ rule: "shape", index: -1, message: "a transcript is an object with an events array" }] };
  }
  const issues: TranscriptIssue[] = [];
  const envelopes = events.map(toEnvelope);
${rules.rules.map((r) => `  ${fnName(r)}(envelopes, issues);`).join("\n")}
  return { valid: issues.length === 0, issues };
}

/**
 * Events come in either frame shape: the envelope \`{ seq, type, data }\`, or
 * the flattened frame \`{ seq, type, ...payload }\` the official SDKs read. An
 * object whose \`data\` is an object and that has no members but \`seq\`,
 * \`type\` and \`data\` is an envelope; any other object is flattened, its
 * payload every member but \`seq\` and \`type\` (schema/CONVENTIONS.md,
 * "Frame shapes").
 */
function toEnvelope(e: unknown): unknown {
  if (!isObject(e) || (isObject(e["data"]) && Object.keys(e).every((k) => k === "data" || k === "seq" || k === "type"))) return e;
  const { seq, type, ...data } = e;
  return { seq, type, data };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function typeOf(e: unknown): string | undefined {
  const t = e !== null && typeof e === "object" ? (e as { type?: unknown }).type : undefined;
  return typeof t === "string" ? t : undefined;
}

function isTerminal(t: string | undefined): boolean {
  return ${rules.terminalTypes.map((t) => `t === ${j(t)}`).join(" || ") || "false"};
}
`);
  for (const rule of rules.rules) out.push(compileRule(rule));
  return out.join("\n");
}

function fnName(rule: TranscriptRule): string {
  return `check${rule.id.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase())}`;
}

/** A boolean expression over `e` (the event) and `t` (its type). */
function selectorExpr(s: Selector): string {
  const parts: string[] = [];
  if (s.type !== undefined) parts.push(`(${s.type.map((t) => `t === ${j(t)}`).join(" || ")})`);
  if (s.terminal !== undefined) parts.push(s.terminal ? "isTerminal(t)" : "!isTerminal(t)");
  for (const w of s.where ?? []) parts.push(`valueAtPointer(e, ${j(pointerSegments(w.pointer))}) === ${j(w.equals)}`);
  return parts.length === 0 ? "true" : parts.join(" && ");
}

function doc(rule: TranscriptRule): string {
  return `/** ${rule.id}: ${rule.description.replace(/\*\//g, "* /")} */`;
}

function compileRule(rule: TranscriptRule): string {
  const head = `${doc(rule)}\nfunction ${fnName(rule)}(events: readonly unknown[], issues: TranscriptIssue[]): void {`;
  const id = j(rule.id);
  switch (rule.check) {
    case "increasing":
      return rule.groupBy === undefined
        ? compileIncreasing(rule, head, id)
        : compileGroupedIncreasing(rule, rule.groupBy, head, id);
    case "count": {
      const lines = [
        head,
        "  let count = 0;",
        "  for (let i = 0; i < events.length; i++) {",
        "    const e = events[i];",
        "    const t = typeOf(e);",
        `    if (!(${selectorExpr(rule.select)})) continue;`,
        "    count++;",
      ];
      if (rule.max !== undefined)
        lines.push(
          `    if (count === ${rule.max + 1}) issues.push({ rule: ${id}, index: i, message: "more than ${rule.max} selected events" });`,
        );
      lines.push("  }");
      if (rule.min !== undefined)
        lines.push(
          `  if (count < ${rule.min}) issues.push({ rule: ${id}, index: -1, message: count + " selected events, fewer than ${rule.min}" });`,
        );
      lines.push("}", "");
      return lines.join("\n");
    }
    case "none-after":
      return `${head}
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const t = typeOf(e);
    if (!(${selectorExpr(rule.select)})) continue;
    if (i < events.length - 1) issues.push({ rule: ${id}, index: i + 1, message: "event " + (i + 1) + " follows the event at " + i });
    return;
  }
}
`;
    case "answers":
      return compileAnswers(rule, head, id);
    case "precedes":
      return compilePrecedes(rule, head, id);
  }
}

/** `v` breaks the order after `prev`: not greater (strict), or less (`strict: false`). */
const breaksOrder = (rule: IncreasingRule, prev: string): string =>
  rule.strict === false ? `v < ${prev}` : `!(v > ${prev})`;
const orderWords = (rule: IncreasingRule): string =>
  rule.strict === false ? ", less than the previous " : ", not greater than the previous ";

function compileIncreasing(rule: IncreasingRule, head: string, id: string): string {
  return `${head}
  let prev: number | undefined;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const t = typeOf(e);
    if (!(${selectorExpr(rule.select)})) continue;
    const v = valueAtPointer(e, ${j(pointerSegments(rule.pointer))});
    if (typeof v !== "number") continue;
    if (prev !== undefined && ${breaksOrder(rule, "prev")}) issues.push({ rule: ${id}, index: i, message: ${j(`${rule.pointer} is `)} + v + ${j(orderWords(rule))} + prev });
    prev = v;
  }
}
`;
}

/** One sequence per string at `groupBy`: events without one are skipped. */
function compileGroupedIncreasing(rule: IncreasingRule, groupBy: string, head: string, id: string): string {
  return `${head}
  const prevOf = new Map<string, number>();
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const t = typeOf(e);
    if (!(${selectorExpr(rule.select)})) continue;
    const g = valueAtPointer(e, ${j(pointerSegments(groupBy))});
    if (typeof g !== "string") continue;
    const v = valueAtPointer(e, ${j(pointerSegments(rule.pointer))});
    if (typeof v !== "number") continue;
    const prev = prevOf.get(g);
    if (prev !== undefined && ${breaksOrder(rule, "prev")}) issues.push({ rule: ${id}, index: i, message: ${j(`${rule.pointer} is `)} + v + ${j(orderWords(rule))} + prev + ${j(` of ${groupBy} `)} + JSON.stringify(g) });
    prevOf.set(g, v);
  }
}
`;
}

/** The run's terminal event lifts the rule when it is one of `unlessTerminal`: code that returns then. */
function liftedByTerminal(unless: readonly Selector[] | undefined): string[] {
  if (unless === undefined || unless.length === 0) return [];
  return [
    `  for (let i = 0; i < events.length; i++) {`,
    `    const e = events[i];`,
    `    const t = typeOf(e);`,
    `    if (!isTerminal(t)) continue;`,
    `    // The run's terminal event lifts the rule when it is one of these.`,
    `    if (${unless.map((s) => `(${selectorExpr(s)})`).join(" ||\n      ")}) return;`,
    `    break;`,
    `  }`,
  ];
}

function compilePrecedes(rule: PrecedesRule, head: string, id: string): string {
  const key = j(pointerSegments(rule.key));
  return [
    head,
    `  // Earlier events still waiting for their later one, by key, oldest first.`,
    `  const waiting = new Map<string, number[]>();`,
    `  for (let i = 0; i < events.length; i++) {`,
    `    const e = events[i];`,
    `    const t = typeOf(e);`,
    `    // An event that is both is first a later event (it cannot pair with itself), then an earlier one.`,
    `    if (${selectorExpr(rule.followedBy)}) {`,
    `      const k = valueAtPointer(e, ${key});`,
    `      if (typeof k === "string") waiting.get(k)?.shift();`,
    `    }`,
    `    if (${selectorExpr(rule.select)}) {`,
    `      const k = valueAtPointer(e, ${key});`,
    `      if (typeof k !== "string") continue;`,
    `      const list = waiting.get(k);`,
    `      if (list === undefined) waiting.set(k, [i]);`,
    `      else list.push(i);`,
    `    }`,
    `  }`,
    ...liftedByTerminal(rule.unlessTerminal),
    `  // In event order, as every other rule reports (not key by key).`,
    `  const left: [number, string][] = [];`,
    `  for (const [k, list] of waiting) for (const index of list) left.push([index, k]);`,
    `  left.sort((a, b) => a[0] - b[0]);`,
    `  for (const [index, k] of left) issues.push({ rule: ${id}, index, message: "event " + index + ${j(` (${rule.key} `)} + JSON.stringify(k) + ") is not followed by a matching later event" });`,
    `}`,
    ``,
  ].join("\n");
}

function compileAnswers(rule: AnswersRule, head: string, id: string): string {
  const key = j(pointerSegments(rule.key));
  const lines: string[] = [head];
  lines.push(`  const calls = new Map<string, { index: number; answers: number }>();`);
  lines.push(`  for (let i = 0; i < events.length; i++) {`);
  lines.push(`    const e = events[i];`);
  lines.push(`    const t = typeOf(e);`);
  lines.push(`    if (${selectorExpr(rule.call)}) {`);
  lines.push(`      const k = valueAtPointer(e, ${key});`);
  lines.push(`      if (typeof k === "string" && !calls.has(k)) calls.set(k, { index: i, answers: 0 });`);
  lines.push(`    }`);
  lines.push(`    if (${selectorExpr(rule.answer)}) {`);
  lines.push(`      const k = valueAtPointer(e, ${key});`);
  lines.push(`      if (typeof k !== "string") continue;`);
  lines.push(`      const call = calls.get(k);`);
  lines.push(`      if (call === undefined) {`);
  if (rule.requireCall === true) {
    lines.push(
      `        issues.push({ rule: ${id}, index: i, message: "answer for " + JSON.stringify(k) + " without an earlier call" });`,
    );
  }
  lines.push(`        continue;`);
  lines.push(`      }`);
  lines.push(`      call.answers++;`);
  if (rule.max !== undefined) {
    lines.push(
      `      if (call.answers > ${rule.max}) issues.push({ rule: ${id}, index: i, message: "call " + JSON.stringify(k) + " (event " + call.index + ") answered more than ${rule.max} time(s)" });`,
    );
  }
  lines.push(`    }`);
  lines.push(`  }`);
  if (rule.min !== undefined) {
    lines.push(...liftedByTerminal(rule.unlessTerminal));
    lines.push(`  for (const [k, call] of calls) {`);
    lines.push(
      `    if (call.answers < ${rule.min}) issues.push({ rule: ${id}, index: call.index, message: "call " + JSON.stringify(k) + " answered " + call.answers + " time(s), fewer than ${rule.min}" });`,
    );
    lines.push(`  }`);
  }
  lines.push(`}`);
  lines.push(``);
  return lines.join("\n");
}
