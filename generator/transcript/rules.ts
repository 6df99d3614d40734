/**
 * The `x-transcript-rules` of `RunTranscript` (schema/openapi.yaml), read and
 * checked into a typed model. The rules are stated once, in the schema; the
 * compiler (compile.ts) turns them into generated/transcript.ts and the
 * interpreter (interpret.ts) applies them at generation time to the flow and
 * transcript fixtures. The Python and Go conformance runners interpret the
 * same rule objects from the bundled schema.
 *
 * Vocabulary (also in the component's description):
 * - `increasing`: the numbers at `pointer` of the selected events, where
 *   present, strictly increase; with `groupBy` (a pointer), only among
 *   events with the same string there (events without one are skipped);
 *   with `strict: false` they may also repeat (never decrease);
 * - `count`: between `min` and `max` events are selected;
 * - `none-after`: no event follows the first selected one;
 * - `answers`: call and answer events paired by the string at `key`;
 *   `requireCall` (every answer has an earlier call), `max` (answers per
 *   call), `min` (answers per call, lifted when the run's terminal event
 *   matches one of `unlessTerminal`);
 * - `precedes`: every selected event is followed, later in the run, by a
 *   `followedBy` event with the same string at `key`, each later event
 *   pairing with one earlier event (an event left unpaired breaks the rule,
 *   lifted when the run's terminal event matches one of `unlessTerminal`).
 */
import { terminalVariants } from "../emit/event-streams.js";
import { EmitError } from "../errors.js";
import { parsePointer } from "../load/json-pointer.js";
import type { SchemaObject } from "openapi3-ts/oas31";

export const TRANSCRIPT_COMPONENT = "RunTranscript";
export const RULES_KEYWORD = "x-transcript-rules";

export interface Where {
  readonly pointer: string;
  readonly equals: string | number | boolean | null;
}

/** Picks events. Every given condition must hold; `{}` selects every event. */
export interface Selector {
  readonly type?: readonly string[];
  /** Events whose variant carries `x-terminal: true` (or, with `false`, the others). */
  readonly terminal?: boolean;
  readonly where?: readonly Where[];
}

interface RuleBase {
  readonly id: string;
  readonly description: string;
}

export interface IncreasingRule extends RuleBase {
  readonly check: "increasing";
  readonly select: Selector;
  readonly pointer: string;
  /** Compare only events with the same string at this pointer (one sequence per value); events without one are skipped. */
  readonly groupBy?: string;
  /** `false`: equal values may repeat (non-decreasing). Default true (strictly increasing). */
  readonly strict?: boolean;
}

export interface CountRule extends RuleBase {
  readonly check: "count";
  readonly select: Selector;
  readonly min?: number;
  readonly max?: number;
}

export interface NoneAfterRule extends RuleBase {
  readonly check: "none-after";
  readonly select: Selector;
}

export interface AnswersRule extends RuleBase {
  readonly check: "answers";
  readonly call: Selector;
  readonly answer: Selector;
  readonly key: string;
  readonly requireCall?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly unlessTerminal?: readonly Selector[];
}

export interface PrecedesRule extends RuleBase {
  readonly check: "precedes";
  /** The earlier events: each needs a later `followedBy` event of its own. */
  readonly select: Selector;
  readonly followedBy: Selector;
  /** Pairs an earlier event with a later one: the same string here. Events without one are skipped. */
  readonly key: string;
  readonly unlessTerminal?: readonly Selector[];
}

export type TranscriptRule = IncreasingRule | CountRule | NoneAfterRule | AnswersRule | PrecedesRule;

export interface TranscriptRules {
  readonly rules: readonly TranscriptRule[];
  /** Event types whose variant in `KnownAgentRunEvent` carries `x-terminal: true`, sorted. */
  readonly terminalTypes: readonly string[];
}

export class TranscriptRulesError extends EmitError {
  constructor(message: string, pointer = `/components/schemas/${TRANSCRIPT_COMPONENT}`) {
    super(
      "invalid-transcript-rules",
      "transcript",
      message,
      `Give #/components/schemas/${TRANSCRIPT_COMPONENT} an ${RULES_KEYWORD} list (\`mantyx-wire keywords\` says what it holds).`,
      pointer,
    );
  }
}

export function isTranscriptRulesError(e: unknown): e is TranscriptRulesError {
  return e instanceof TranscriptRulesError;
}

const AT = `#/components/schemas/${TRANSCRIPT_COMPONENT}/${RULES_KEYWORD}`;

/** Reads and checks the rules; throws a TranscriptRulesError that names the fix. */
export function readTranscriptRules(schemas: Readonly<Record<string, SchemaObject>>): TranscriptRules {
  const component = schemas[TRANSCRIPT_COMPONENT] as Record<string, unknown> | undefined;
  if (component === undefined) {
    throw new TranscriptRulesError(
      `No #/components/schemas/${TRANSCRIPT_COMPONENT}: add it with an ${RULES_KEYWORD} list (\`mantyx-wire keywords\`).`,
      "/components/schemas",
    );
  }
  const raw = component[RULES_KEYWORD];
  if (!Array.isArray(raw) || raw.length === 0)
    throw new TranscriptRulesError(`${AT} must be a non-empty array of rule objects.`);
  const seen = new Set<string>();
  const rules = raw.map((r, i) => {
    const rule = readRule(r, `${AT}/${i}`);
    if (seen.has(rule.id))
      throw new TranscriptRulesError(
        `${AT}/${i}: duplicate rule id "${rule.id}"; ids name the rule a transcript breaks and must be unique.`,
      );
    seen.add(rule.id);
    return rule;
  });
  return { rules, terminalTypes: terminalTypes(schemas) };
}

/** Types of the `KnownAgentRunEvent` variants marked `x-terminal: true`, sorted (the same walk the client's event stream reads them by). */
export function terminalTypes(schemas: Readonly<Record<string, SchemaObject>>): string[] {
  const out = terminalVariants(schemas, "KnownAgentRunEvent").map(([tag]) => tag);
  if (out.length === 0)
    throw new TranscriptRulesError(
      "No KnownAgentRunEvent variant carries x-terminal: true; the terminal selector would select nothing.",
    );
  return out;
}

function readRule(value: unknown, at: string): TranscriptRule {
  const r = object(value, at);
  const id = string(r["id"], `${at}/id`);
  if (!/^[a-z][a-z0-9-]*$/.test(id))
    throw new TranscriptRulesError(
      `${at}/id: "${id}" must be kebab-case (it becomes part of generated names and case ids).`,
    );
  const description = string(r["description"], `${at}/description`);
  const base = { id, description };
  switch (r["check"]) {
    case "increasing": {
      const strict = r["strict"];
      if (strict !== undefined && typeof strict !== "boolean")
        throw new TranscriptRulesError(`${at}/strict must be a boolean (false: values may repeat).`);
      return {
        ...base,
        check: "increasing",
        select: selector(r["select"], `${at}/select`),
        pointer: pointer(r["pointer"], `${at}/pointer`),
        ...(r["groupBy"] !== undefined ? { groupBy: pointer(r["groupBy"], `${at}/groupBy`) } : {}),
        ...(strict === false ? { strict: false } : {}),
      };
    }
    case "count":
      return { ...base, check: "count", select: selector(r["select"], `${at}/select`), ...bounds(r, at) };
    case "none-after":
      return { ...base, check: "none-after", select: selector(r["select"], `${at}/select`) };
    case "precedes":
      return {
        ...base,
        check: "precedes",
        select: selector(r["select"], `${at}/select`),
        followedBy: selector(r["followedBy"], `${at}/followedBy`),
        key: pointer(r["key"], `${at}/key`),
        ...unlessTerminal(r, at),
      };
    case "answers": {
      const requireCall = r["requireCall"];
      if (requireCall !== undefined && typeof requireCall !== "boolean")
        throw new TranscriptRulesError(`${at}/requireCall must be a boolean.`);
      const rule: AnswersRule = {
        ...base,
        check: "answers",
        call: selector(r["call"], `${at}/call`),
        answer: selector(r["answer"], `${at}/answer`),
        key: pointer(r["key"], `${at}/key`),
        ...(requireCall === true ? { requireCall: true } : {}),
        ...bounds(r, at),
        ...unlessTerminal(r, at),
      };
      if (rule.requireCall !== true && rule.min === undefined && rule.max === undefined) {
        throw new TranscriptRulesError(
          `${at}: an "answers" rule needs requireCall, min or max, else it checks nothing.`,
        );
      }
      return rule;
    }
    default:
      throw new TranscriptRulesError(
        `${at}/check: "${String(r["check"])}" is not one of increasing, count, none-after, answers, precedes.`,
      );
  }
}

function unlessTerminal(r: Record<string, unknown>, at: string): { unlessTerminal?: Selector[] } {
  const unless = r["unlessTerminal"];
  if (unless === undefined) return {};
  if (!Array.isArray(unless)) throw new TranscriptRulesError(`${at}/unlessTerminal must be an array of selectors.`);
  return { unlessTerminal: unless.map((s, i) => selector(s, `${at}/unlessTerminal/${i}`)) };
}

function bounds(r: Record<string, unknown>, at: string): { min?: number; max?: number } {
  const out: { min?: number; max?: number } = {};
  for (const k of ["min", "max"] as const) {
    const v = r[k];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0)
      throw new TranscriptRulesError(`${at}/${k} must be a non-negative integer.`);
    out[k] = v;
  }
  return out;
}

function selector(value: unknown, at: string): Selector {
  const s = object(value, at);
  const out: { type?: string[]; terminal?: boolean; where?: Where[] } = {};
  for (const key of Object.keys(s)) {
    if (key !== "type" && key !== "terminal" && key !== "where")
      throw new TranscriptRulesError(`${at}/${key}: a selector has only type, terminal and where.`);
  }
  if (s["type"] !== undefined) {
    const t = s["type"];
    if (!Array.isArray(t) || t.length === 0 || !t.every((x) => typeof x === "string"))
      throw new TranscriptRulesError(`${at}/type must be a non-empty array of event types.`);
    out.type = [...(t as string[])];
  }
  if (s["terminal"] !== undefined) {
    if (typeof s["terminal"] !== "boolean") throw new TranscriptRulesError(`${at}/terminal must be a boolean.`);
    out.terminal = s["terminal"];
  }
  if (s["where"] !== undefined) {
    const w = s["where"];
    if (!Array.isArray(w)) throw new TranscriptRulesError(`${at}/where must be an array of { pointer, equals }.`);
    out.where = w.map((c, i) => {
      const o = object(c, `${at}/where/${i}`);
      const eq = o["equals"];
      if (eq !== null && typeof eq === "object")
        throw new TranscriptRulesError(`${at}/where/${i}/equals must be a string, number, boolean or null.`);
      return { pointer: pointer(o["pointer"], `${at}/where/${i}/pointer`), equals: eq as Where["equals"] };
    });
  }
  return out;
}

function pointer(value: unknown, at: string): string {
  const p = string(value, at);
  if (!p.startsWith("/"))
    throw new TranscriptRulesError(`${at}: "${p}" must be a JSON pointer into one event, starting with "/".`);
  return p;
}

function string(value: unknown, at: string): string {
  if (typeof value !== "string" || value === "") throw new TranscriptRulesError(`${at} must be a non-empty string.`);
  return value;
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new TranscriptRulesError(`${at} must be an object.`);
  return value as Record<string, unknown>;
}

/** `"/data/turn"` -> `["data", "turn"]` (RFC 6901 unescaping; the rules' pointers are checked to start with `/`). */
export const pointerSegments = (p: string): string[] => parsePointer(p);
