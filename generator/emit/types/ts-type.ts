/**
 * A tiny TypeScript type AST and its printer. Building types as data (not
 * strings) lets unions and intersections be flattened and deduplicated, and
 * parentheses come from precedence instead of guesswork. Every string from
 * the schema reaches the output through JSON.stringify (literals, quoted
 * property names) or the JSDoc escaper, never raw.
 */
import { IDENTIFIER } from "../identifier.js";
import { renderJsDoc } from "./jsdoc.js";

export type TsType =
  | {
      readonly kind: "keyword";
      readonly name: "string" | "number" | "boolean" | "null" | "unknown" | "never" | "undefined";
    }
  | { readonly kind: "literal"; readonly value: string | number | boolean }
  | { readonly kind: "reference"; readonly name: string }
  | { readonly kind: "array"; readonly element: TsType }
  /** `required`: how many leading elements every value has (the schema's `minItems`); the others are optional (`[A, B?]`). */
  | { readonly kind: "tuple"; readonly elements: readonly TsType[]; readonly required: number }
  | { readonly kind: "union"; readonly members: readonly TsType[] }
  | { readonly kind: "intersection"; readonly members: readonly TsType[] }
  | { readonly kind: "object"; readonly properties: readonly TsProperty[]; readonly index?: TsType };

export interface TsProperty {
  readonly name: string;
  readonly optional: boolean;
  readonly type: TsType;
  /** JSDoc lines (unescaped). */
  readonly doc: readonly string[];
}

export const keyword = (name: Extract<TsType, { kind: "keyword" }>["name"]): TsType => ({ kind: "keyword", name });
export const UNKNOWN = keyword("unknown");
export const NEVER = keyword("never");
export const literal = (value: string | number | boolean): TsType => ({ kind: "literal", value });
export const reference = (name: string): TsType => ({ kind: "reference", name });
export const array = (element: TsType): TsType => ({ kind: "array", element });
export const tuple = (elements: readonly TsType[], required = elements.length): TsType => ({
  kind: "tuple",
  elements,
  required,
});
export const object = (properties: readonly TsProperty[], index?: TsType): TsType =>
  index === undefined ? { kind: "object", properties } : { kind: "object", properties, index };

const isKeyword = (type: TsType, name: string): boolean => type.kind === "keyword" && type.name === name;

/** `A | B`, flattened and deduplicated; `unknown` absorbs everything, `never` disappears. */
export function union(members: readonly TsType[]): TsType {
  const flat = members.flatMap((member) => (member.kind === "union" ? member.members : [member]));
  if (flat.some((member) => isKeyword(member, "unknown"))) return UNKNOWN;
  const unique = dedupe(flat.filter((member) => !isKeyword(member, "never")));
  if (unique.length === 0) return NEVER;
  return unique.length === 1 ? unique[0]! : { kind: "union", members: unique };
}

/** `A & B`, flattened and deduplicated; `unknown` disappears, `never` absorbs everything. */
export function intersection(members: readonly TsType[]): TsType {
  const flat = members.flatMap((member) => (member.kind === "intersection" ? member.members : [member]));
  if (flat.some((member) => isKeyword(member, "never"))) return NEVER;
  const unique = dedupe(flat.filter((member) => !isKeyword(member, "unknown")));
  if (unique.length === 0) return UNKNOWN;
  return unique.length === 1 ? unique[0]! : { kind: "intersection", members: unique };
}

function dedupe(types: readonly TsType[]): TsType[] {
  const seen = new Set<string>();
  return types.filter((type) => {
    const key = printType(type, "");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A property key: bare when it is an identifier, else a JSON string literal. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/**
 * Print a type. `indent` is the indentation of the line the type starts on;
 * object members go one level (two spaces) deeper. Short undocumented
 * object types stay on one line (`{ result: unknown }`) unless `inline` is
 * false, which applies to this type and the direct members of a top-level
 * union or intersection, not to anything nested deeper.
 */
export function printType(type: TsType, indent: string, inline = true): string {
  if (type.kind === "keyword" || type.kind === "reference") return type.name;
  // A type is printed many times over: a union compares its members by their text (dedupe), and an
  // object is first tried on one line. Without remembering, nested types cost a print per level of nesting.
  let texts = printed.get(type);
  if (texts === undefined) printed.set(type, (texts = new Map()));
  const key = inline ? indent : `!${indent}`;
  let text = texts.get(key);
  if (text === undefined) texts.set(key, (text = printUncached(type, indent, inline)));
  return text;
}

/** What `printType` printed for a type object (types are immutable), by indent and `inline`. */
const printed = new WeakMap<TsType, Map<string, string>>();

/** `printType` of a type that is not a leaf (a keyword or reference is its name: `printType` answers those itself). */
function printUncached(
  type: Exclude<TsType, { kind: "keyword" | "reference" }>,
  indent: string,
  inline: boolean,
): string {
  const print = (inner: TsType, parenthesize: readonly TsType["kind"][] = []): string => {
    const text = printType(inner, indent, inner.kind === "object" ? inline : true);
    return parenthesize.includes(inner.kind) ? `(${text})` : text;
  };
  switch (type.kind) {
    case "literal":
      return JSON.stringify(type.value);
    case "array":
      return `${print(type.element, ["union", "intersection"])}[]`;
    case "tuple":
      return `[${type.elements.map((element, i) => (i < type.required ? print(element) : `${print(element, ["union", "intersection"])}?`)).join(", ")}]`;
    case "union":
      // `&` binds tighter than `|`; the parentheses are for the reader.
      return type.members.map((member) => print(member, ["intersection"])).join(" | ");
    case "intersection":
      return type.members.map((member) => print(member, ["union"])).join(" & ");
    case "object":
      return printObject(type, indent, inline);
  }
}

/** The members of an object type, one per line, at `indent`. */
export function printMembers(type: Extract<TsType, { kind: "object" }>, indent: string): string[] {
  const lines: string[] = [];
  for (const property of type.properties) {
    lines.push(...renderJsDoc(property.doc, indent));
    lines.push(
      `${indent}${propertyKey(property.name)}${property.optional ? "?" : ""}: ${printType(property.type, indent)};`,
    );
  }
  if (type.index) lines.push(`${indent}[key: string]: ${printType(type.index, indent)};`);
  return lines;
}

const INLINE_OBJECT_MAX = 60;

function printObject(type: Extract<TsType, { kind: "object" }>, indent: string, inline: boolean): string {
  // No members at all (the `{}` of `string & {}`). A closed empty object has a `never` index signature instead.
  if (type.properties.length === 0 && !type.index) return "{}";
  if (inline && type.properties.every((property) => property.doc.length === 0)) {
    const members = printMembers(type, "").map((member) => member.slice(0, -1));
    const text = `{ ${members.join("; ")} }`;
    if (!text.includes("\n") && text.length <= INLINE_OBJECT_MAX) return text;
  }
  return `{\n${printMembers(type, `${indent}  `).join("\n")}\n${indent}}`;
}
