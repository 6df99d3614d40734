/**
 * Applies transcript rules directly from the rule objects. Used at
 * generation time (to check flow transcripts and give transcript cases their
 * verdicts) and in the tests, which prove the compiled validator in
 * generated/transcript.ts says the same on every case. The semantics here
 * are the reference the compiler and the Python and Go runners follow.
 */
import { toEnvelope } from "./frame-shape.js";
import { pointerSegments, type Selector, type TranscriptRule, type TranscriptRules } from "./rules.js";

export interface TranscriptIssue {
  /** The id of the rule broken (`shape` when the transcript is not `{ events: [...] }`). */
  readonly rule: string;
  /** Index of the offending event, or -1 when the whole transcript is at fault. */
  readonly index: number;
  readonly message: string;
}

export function checkTranscript(rules: TranscriptRules, transcript: unknown): TranscriptIssue[] {
  const events = (transcript as { events?: unknown } | null)?.events;
  if (transcript === null || typeof transcript !== "object" || !Array.isArray(events)) {
    return [{ rule: "shape", index: -1, message: "a transcript is an object with an events array" }];
  }
  const terminal = new Set(rules.terminalTypes);
  const issues: TranscriptIssue[] = [];
  // Either frame shape (./frame-shape.ts): the rules' pointers are into the envelope.
  const envelopes = events.map((e) => toEnvelope(e).event);
  for (const rule of rules.rules) apply(rule, envelopes, terminal, issues);
  return issues;
}

function apply(rule: TranscriptRule, events: readonly unknown[], terminal: ReadonlySet<string>, issues: TranscriptIssue[]): void {
  const sel = (s: Selector, e: unknown): boolean => selects(s, e, terminal);
  switch (rule.check) {
    case "increasing": {
      const path = pointerSegments(rule.pointer);
      let prev: number | undefined;
      events.forEach((e, i) => {
        if (!sel(rule.select, e)) return;
        const v = get(e, path);
        if (typeof v !== "number") return;
        if (prev !== undefined && !(v > prev)) issues.push({ rule: rule.id, index: i, message: `${rule.pointer} is ${v}, not greater than the previous ${prev}` });
        prev = v;
      });
      return;
    }
    case "count": {
      const hits = events.flatMap((e, i) => (sel(rule.select, e) ? [i] : []));
      if (rule.min !== undefined && hits.length < rule.min) issues.push({ rule: rule.id, index: -1, message: `${hits.length} selected events, fewer than ${rule.min}` });
      if (rule.max !== undefined && hits.length > rule.max) issues.push({ rule: rule.id, index: hits[rule.max]!, message: `${hits.length} selected events, more than ${rule.max}` });
      return;
    }
    case "none-after": {
      const first = events.findIndex((e) => sel(rule.select, e));
      if (first !== -1 && first < events.length - 1) issues.push({ rule: rule.id, index: first + 1, message: `event ${first + 1} follows the event at ${first}` });
      return;
    }
    case "answers": {
      const key = pointerSegments(rule.key);
      const calls = new Map<string, { index: number; answers: number }>();
      events.forEach((e, i) => {
        if (sel(rule.call, e)) {
          const k = get(e, key);
          if (typeof k === "string" && !calls.has(k)) calls.set(k, { index: i, answers: 0 });
        }
        if (sel(rule.answer, e)) {
          const k = get(e, key);
          if (typeof k !== "string") return;
          const call = calls.get(k);
          if (call === undefined) {
            if (rule.requireCall === true) issues.push({ rule: rule.id, index: i, message: `answer for ${JSON.stringify(k)} without an earlier call` });
            return;
          }
          call.answers++;
          if (rule.max !== undefined && call.answers > rule.max) issues.push({ rule: rule.id, index: i, message: `call ${JSON.stringify(k)} (event ${call.index}) answered more than ${rule.max} time(s)` });
        }
      });
      if (rule.min === undefined) return;
      const end = events.find((e) => selects({ terminal: true }, e, terminal));
      if (end !== undefined && (rule.unlessTerminal ?? []).some((s) => sel(s, end))) return;
      for (const [k, call] of calls) {
        if (call.answers < rule.min) issues.push({ rule: rule.id, index: call.index, message: `call ${JSON.stringify(k)} answered ${call.answers} time(s), fewer than ${rule.min}` });
      }
      return;
    }
  }
}

function selects(s: Selector, e: unknown, terminal: ReadonlySet<string>): boolean {
  const type = get(e, ["type"]);
  if (s.type !== undefined && !(typeof type === "string" && s.type.includes(type))) return false;
  if (s.terminal !== undefined && (typeof type === "string" && terminal.has(type)) !== s.terminal) return false;
  for (const w of s.where ?? []) if (get(e, pointerSegments(w.pointer)) !== w.equals) return false;
  return true;
}

function get(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const seg of path) {
    if (v === null || typeof v !== "object") return undefined;
    if (Array.isArray(v)) {
      if (!/^(0|[1-9][0-9]*)$/.test(seg)) return undefined;
      v = v[Number(seg)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(v, seg)) return undefined;
      v = (v as Record<string, unknown>)[seg];
    }
  }
  return v;
}
