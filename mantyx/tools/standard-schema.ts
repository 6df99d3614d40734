/**
 * The Standard Schema adapter of the tool registry (./registry.ts): a local
 * tool's `parameters` (or `outputSchema`) may be a Zod (4.2+), ArkType or
 * Valibot schema, any Standard Schema that carries the Standard JSON Schema
 * converter (https://standardschema.dev/json-schema). It is sent as the
 * JSON Schema it converts to, and its own `validate` checks the arguments;
 * its issues read as the registry's other argument problems do.
 */
import type { JsonSchemaObject } from "../../generated/types.js";

/**
 * A Standard Schema (https://standardschema.dev) that can also describe
 * itself as JSON Schema (Standard JSON Schema V1): Zod 4.2+, ArkType
 * 2.1.28+, Valibot through `toStandardJsonSchema`. Only what the registry
 * reads is typed here; no schema library is a dependency.
 */
export interface StandardJsonSchema<Output = unknown> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate?: ((value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>) | undefined;
    readonly jsonSchema: {
      readonly input: (options: { readonly target: "draft-2020-12" }) => Record<string, unknown>;
      readonly output: (options: { readonly target: "draft-2020-12" }) => Record<string, unknown>;
    };
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

/** The result of a Standard Schema `validate`. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
      }>;
    };

export function isStandardJsonSchema(value: unknown): value is StandardJsonSchema {
  return typeof value === "object" && value !== null && "~standard" in value;
}

/** `schema` as the JSON Schema to send: as is, or converted (Standard JSON Schema). */
export function jsonSchemaOf(
  schema: JsonSchemaObject | StandardJsonSchema | undefined,
  side: "input" | "output",
  what: string,
): JsonSchemaObject | undefined {
  if (!isStandardJsonSchema(schema)) return schema;
  const converter = schema["~standard"].jsonSchema?.[side];
  if (typeof converter !== "function") {
    throw new TypeError(
      `${what} is a Standard Schema (${schema["~standard"].vendor}) that cannot describe itself as JSON Schema (no ~standard.jsonSchema): pass JSON Schema, or a schema of a library that implements Standard JSON Schema (Zod 4.2+, ArkType 2.1.28+, Valibot through toStandardJsonSchema).`,
    );
  }
  return converter({ target: "draft-2020-12" }) as JsonSchemaObject;
}

/** A Standard Schema issue as one line: `/path/to message`. */
export function issueLine(issue: {
  message: string;
  path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}): string {
  const path = (issue.path ?? []).map((p) => `/${String(typeof p === "object" ? p.key : p)}`).join("");
  return `${path || "(arguments)"} ${issue.message}`;
}
