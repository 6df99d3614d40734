/**
 * The event streams of the document's streamed operations, as the client and
 * the events emitter see them: each `text/event-stream` success response
 * whose item schema (`x-item-schema` in 3.1, `itemSchema` in 3.2) is a
 * component, of an operation that declares `x-resume` (the resumable,
 * validated event stream with a `seq`/`type` envelope: an opt-in, see
 * schema/CONVENTIONS.md), that component's discriminator property, and the
 * types of its variants marked `x-terminal: true` (after which the server
 * sends nothing). Other streamed answers are plain item streams of the
 * client (client/responses.ts).
 */
import type { OpenAPIObject, SchemaObject } from "openapi3-ts/oas31";
import type { LoadedSchema } from "../model.js";
import { componentName, deref, isRef, operationsOf } from "./operations.js";

export interface EventStream {
  /** The item schema's component. */
  readonly component: string;
  /** The operations that stream it. */
  readonly operations: readonly string[];
  /** Discriminator values of the terminal variants, sorted. */
  readonly terminal: readonly string[];
  /** The components of those variants, sorted. */
  readonly terminalComponents: readonly string[];
  /**
   * The envelope member holding the payload: the one property every tagged
   * variant requires besides the tag and `seq` (MANTYX: `data`); undefined
   * when there is no such single member. Lets the runtime read flattened
   * frames too (schema/CONVENTIONS.md, "Frame shapes").
   */
  readonly payload: string | undefined;
}

/** Whether the operation opts into the resumable event stream (`x-resume`). */
export function isResumableStream(op: object): boolean {
  return (op as Record<string, unknown>)["x-resume"] !== undefined;
}

/** The item schema component of an operation's event-stream answer, or undefined. */
export function streamItemComponent(
  doc: OpenAPIObject,
  responses: Record<string, unknown> | undefined,
): string | undefined {
  for (const status of Object.keys(responses ?? {}).sort()) {
    if (!/^2\d\d$/.test(status)) continue;
    const content =
      deref<{ content?: Record<string, Record<string, unknown>> }>(doc, responses![status] as object).content ?? {};
    for (const media of Object.keys(content).sort()) {
      if (!media.startsWith("text/event-stream")) continue;
      const item = content[media]!["itemSchema"] ?? content[media]!["x-item-schema"];
      const name = componentName(item);
      if (name !== undefined) return name;
    }
  }
  return undefined;
}

/** Every event stream, by component name. */
export function eventStreams(model: LoadedSchema): EventStream[] {
  const byComponent = new Map<string, string[]>();
  for (const { op } of operationsOf(model.document)) {
    if (!isResumableStream(op)) continue;
    const component = streamItemComponent(model.document, op.responses as Record<string, unknown>);
    if (component === undefined || op.operationId === undefined) continue;
    byComponent.set(component, [...(byComponent.get(component) ?? []), op.operationId]);
  }
  return [...byComponent.keys()].sort().map((component) => {
    const entries = terminalVariants(model.schemas, component);
    return {
      component,
      operations: byComponent.get(component)!.sort(),
      terminal: entries.map(([tag]) => tag),
      terminalComponents: [...new Set(entries.map(([, name]) => name))].sort(),
      payload: payloadMember(model, component),
    };
  });
}

/**
 * Calls `each` once for every component reachable from `name` through
 * unions (`oneOf`/`anyOf`/`allOf`, `if`/`then`/`else`, each a `$ref`),
 * `name` included, with the tag property that applies there (the nearest
 * `discriminator.propertyName`, else `type`).
 */
function forEachVariant(
  schemas: LoadedSchema["schemas"],
  name: string,
  each: (schema: SchemaObject, component: string, tag: string) => void,
): void {
  const seen = new Set<string>();
  const walk = (component: string, inherited: string): void => {
    if (seen.has(component)) return;
    seen.add(component);
    const schema = schemas[component] as SchemaObject | boolean | undefined;
    if (typeof schema !== "object") return;
    const tag = (schema.discriminator?.propertyName as string | undefined) ?? inherited;
    each(schema, component, tag);
    const branches = [
      ...(["oneOf", "anyOf", "allOf"] as const).flatMap((key) => (schema[key] ?? []) as unknown[]),
      ...(["if", "then", "else"] as const).map((key) => (schema as Record<string, unknown>)[key]),
    ];
    for (const branch of branches) {
      const target = isRef(branch) ? componentName(branch) : undefined;
      if (target !== undefined) walk(target, tag);
    }
  };
  walk(name, "type");
}

/** The one member every tagged variant reachable from `name` requires besides its tag and `seq`, if there is exactly one. */
function payloadMember(model: LoadedSchema, name: string): string | undefined {
  let common: Set<string> | undefined;
  forEachVariant(model.schemas, name, (schema, _component, tag) => {
    if ((schema.properties?.[tag] as { const?: unknown } | undefined)?.const === undefined) return;
    const required = new Set((schema.required ?? []).filter((r) => r !== tag && r !== "seq"));
    common = common === undefined ? required : new Set([...common].filter((r) => required.has(r)));
  });
  const members = [...(common ?? [])];
  return members.length === 1 ? members[0] : undefined;
}

/** The tags of the `x-terminal: true` variants reachable from `name`, with their components, sorted by tag. */
export function terminalVariants(
  schemas: LoadedSchema["schemas"],
  name: string,
): Array<[tag: string, component: string]> {
  const found = new Map<string, string>();
  forEachVariant(schemas, name, (schema, component, tag) => {
    if ((schema as Record<string, unknown>)["x-terminal"] !== true) return;
    const value = (schema.properties?.[tag] as { const?: unknown } | undefined)?.const;
    if (typeof value === "string") found.set(value, component);
  });
  return [...found].sort(([a], [b]) => (a < b ? -1 : 1));
}
