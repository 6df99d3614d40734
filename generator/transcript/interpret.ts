/**
 * Applies transcript rules directly from the rule objects. Used at
 * generation time (to check flow transcripts and give transcript cases their
 * verdicts) and in the tests, which prove the compiled validator in
 * generated/transcript.ts says the same on every case. The semantics here
 * are the reference the compiler and the Python and Go runners follow.
 */
import { getAtPointer as get } from "../load/json-pointer.js";
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

function apply(
  rule: TranscriptRule,
  events: readonly unknown[],
  terminal: ReadonlySet<string>,
  issues: TranscriptIssue[],
): void {
  const sel = (s: Selector, e: unknown): boolean => selects(s, e, terminal);
  switch (rule.check) {
    case "increasing": {
      const path = pointerSegments(rule.pointer);
      const group = rule.groupBy === undefined ? undefined : pointerSegments(rule.groupBy);
      const strict = rule.strict !== false;
      // The previous value of each group ("" is the one group when there is no groupBy).
      const prev = new Map<string, number>();
      events.forEach((e, i) => {
        if (!sel(rule.select, e)) return;
        const g = group === undefined ? "" : get(e, group);
        if (typeof g !== "string") return;
        const v = get(e, path);
        if (typeof v !== "number") return;
        const p = prev.get(g);
        if (p !== undefined && (strict ? !(v > p) : !(v >= p))) {
          issues.push({
            rule: rule.id,
            index: i,
            message: `${rule.pointer} is ${v}, ${strict ? "not greater than" : "less than"} the previous ${p}${group === undefined ? "" : ` of ${rule.groupBy} ${JSON.stringify(g)}`}`,
          });
        }
        prev.set(g, v);
      });
      return;
    }
    case "precedes": {
      const key = pointerSegments(rule.key);
      // Earlier events still waiting for their later one, by key, oldest first.
      const waiting = new Map<string, number[]>();
      events.forEach((e, i) => {
        // An event that is both is first a later event (it cannot pair with itself), then an earlier one.
        if (sel(rule.followedBy, e)) {
          const k = get(e, key);
          if (typeof k === "string") waiting.get(k)?.shift();
        }
        if (sel(rule.select, e)) {
          const k = get(e, key);
          if (typeof k !== "string") return;
          const list = waiting.get(k);
          if (list === undefined) waiting.set(k, [i]);
          else list.push(i);
        }
      });
      if (liftedByTerminal(rule.unlessTerminal, events, terminal)) return;
      const left = [...waiting.entries()]
        .flatMap(([k, list]) => list.map((index) => ({ k, index })))
        .sort((a, b) => a.index - b.index);
      for (const { k, index } of left)
        issues.push({
          rule: rule.id,
          index,
          message: `event ${index} (${rule.key} ${JSON.stringify(k)}) is not followed by a matching later event`,
        });
      return;
    }
    case "count": {
      const hits = events.flatMap((e, i) => (sel(rule.select, e) ? [i] : []));
      if (rule.min !== undefined && hits.length < rule.min)
        issues.push({ rule: rule.id, index: -1, message: `${hits.length} selected events, fewer than ${rule.min}` });
      if (rule.max !== undefined && hits.length > rule.max)
        issues.push({
          rule: rule.id,
          index: hits[rule.max]!,
          message: `${hits.length} selected events, more than ${rule.max}`,
        });
      return;
    }
    case "none-after": {
      const first = events.findIndex((e) => sel(rule.select, e));
      if (first !== -1 && first < events.length - 1)
        issues.push({ rule: rule.id, index: first + 1, message: `event ${first + 1} follows the event at ${first}` });
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
            if (rule.requireCall === true)
              issues.push({
                rule: rule.id,
                index: i,
                message: `answer for ${JSON.stringify(k)} without an earlier call`,
              });
            return;
          }
          call.answers++;
          if (rule.max !== undefined && call.answers > rule.max)
            issues.push({
              rule: rule.id,
              index: i,
              message: `call ${JSON.stringify(k)} (event ${call.index}) answered more than ${rule.max} time(s)`,
            });
        }
      });
      if (rule.min === undefined) return;
      if (liftedByTerminal(rule.unlessTerminal, events, terminal)) return;
      for (const [k, call] of calls) {
        if (call.answers < rule.min)
          issues.push({
            rule: rule.id,
            index: call.index,
            message: `call ${JSON.stringify(k)} answered ${call.answers} time(s), fewer than ${rule.min}`,
          });
      }
      return;
    }
  }
}

/** The run's (first) terminal event matches one of `unless`. */
function liftedByTerminal(
  unless: readonly Selector[] | undefined,
  events: readonly unknown[],
  terminal: ReadonlySet<string>,
): boolean {
  const end = events.find((e) => selects({ terminal: true }, e, terminal));
  return end !== undefined && (unless ?? []).some((s) => selects(s, end, terminal));
}

function selects(s: Selector, e: unknown, terminal: ReadonlySet<string>): boolean {
  const type = get(e, ["type"]);
  if (s.type !== undefined && !(typeof type === "string" && s.type.includes(type))) return false;
  if (s.terminal !== undefined && (typeof type === "string" && terminal.has(type)) !== s.terminal) return false;
  for (const w of s.where ?? []) if (get(e, pointerSegments(w.pointer)) !== w.equals) return false;
  return true;
}
