/**
 * `x-receive-default: { section, members: { <name>: { default, from? } } }`
 * (schema/CONVENTIONS.md, "Two validation levels"), on an object schema:
 * members a documented rule requires, which real servers leave out or send
 * unreadable (`tokens` without `reasoningTokens`, `error` without `code`),
 * and which the documents give a value for when they are missing. The
 * strict level requires them as written (an annotation for ajv there). At
 * the receive level they are neither required nor checked by their own
 * schema; instead each is read as documented: a member that is absent, or
 * whose value is not of its default's JSON type, is read as the member
 * `from` names (when that value is of the type), else as `default`, in
 * place. A message that breaks a member's rule (absent, or failing its
 * `type` or `minimum`) is reported once, naming `section`. The type keeps
 * the member required: what a client reads always has it.
 *
 * The receive level compiles it into `x-tolerated` (./x-tolerated.ts);
 * generator/emit/validators/receive-level.ts checks that each member is a
 * declared property whose schema it can read (a `type`, at most a
 * `minimum`, annotations).
 */
import type { KeywordDefinition } from "ajv/dist/2020.js";
import { SECTION_SCHEMA } from "./x-strict-only.js";

export const xReceiveDefault: KeywordDefinition = {
  keyword: "x-receive-default",
  schemaType: "object",
  metaSchema: {
    type: "object",
    required: ["section", "members"],
    additionalProperties: false,
    properties: {
      section: SECTION_SCHEMA,
      members: {
        type: "object",
        minProperties: 1,
        additionalProperties: {
          type: "object",
          required: ["default"],
          additionalProperties: false,
          properties: { default: { type: ["string", "number", "boolean"] }, from: { type: "string", minLength: 1 } },
        },
      },
    },
  },
};
