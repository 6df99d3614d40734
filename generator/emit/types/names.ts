/** TypeScript names for schema things: component type names, constant names. */
import { IDENTIFIER, RESERVED_WORDS } from "../identifier.js";

/** What cannot name a type: the reserved words and the predefined type names. */
const RESERVED = new Set([
  ...RESERVED_WORDS,
  "any",
  "unknown",
  "never",
  "string",
  "number",
  "boolean",
  "bigint",
  "symbol",
  "object",
  "undefined",
]);

/**
 * A component name as a type name. PascalCase names (the convention) pass
 * through; anything else (`foo-bar`, `v1.Thing`) becomes PascalCase.
 */
export function typeName(componentName: string): string {
  let name = IDENTIFIER.test(componentName)
    ? componentName
    : componentName
        .split(/[^A-Za-z0-9]+/)
        .filter((part) => part !== "")
        .map((part) => part[0]!.toUpperCase() + part.slice(1))
        .join("");
  if (name === "" || /^[0-9]/.test(name)) name = `_${name}`;
  return RESERVED.has(name) ? `${name}_` : name;
}

/** `KnownAgentRunEvent` -> `KNOWN_AGENT_RUN_EVENT`, `A2aToolRef` -> `A2A_TOOL_REF`. */
export function screamingSnake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
}

/** `type` -> `types`, `status` -> `statuses`, `category` -> `categories`. */
export function plural(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

/** `type` -> `Type`, `event_type` -> `EventType`. */
export function pascalCase(word: string): string {
  return word
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== "")
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}

/** `UnknownAgentRunEventType` -> `unknownAgentRunEventType`. */
export function camelCase(name: string): string {
  return name.length === 0 ? name : name[0]!.toLowerCase() + name.slice(1);
}
