/**
 * Emitter "events": `generated/events.ts`, one EventStreamSpec per event
 * stream of the schema (the item schema's validator and terminal types,
 * generator/emit/event-streams.ts), the union of its terminal variants with
 * a type guard, and the typed event layer bound to it. The runtime's event
 * layer is protocol-neutral; this file is where the schema's facts meet it.
 *
 * Names, for item schema component `X`: `xStream` (the spec), `TerminalX`,
 * `isTerminalX`, `decodeX` / `decodeXBatches` / `decodeXMessage`. When the
 * schema has exactly one event stream, its names also get the short forms
 * `TerminalEvent`, `isTerminalEvent`, `decodeEvents`, `decodeEventBatches`,
 * `decodeEventMessage`.
 */
import { header } from "../header.js";
import type { EmittedFile, Emitter, LoadedSchema } from "../model.js";
import { eventStreams, type EventStream } from "./event-streams.js";
import { checksRevision, runtimeImport } from "./runtime-import.js";
import { componentNames, type ComponentNames } from "./component-names.js";

const FILE = "events.ts";

/** The codegen/v1 revision that reads EventStreamSpec.payload (runtime/codegen/v1.ts). */
export const PAYLOAD_REVISION = 3;

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
/** `AgentRunEvent` -> `AgentRunEvents` (the decoders' noun). */
const plural = (s: string): string => (s.endsWith("s") ? s : `${s}s`);

export function streamSpecName(component: string): string {
  return `${lowerFirst(component)}Stream`;
}

export function terminalTypeName(component: string): string {
  return `Terminal${component}`;
}

function streamBlock(names: ComponentNames, stream: EventStream, short: boolean): string {
  const { component, terminal, terminalComponents, operations, payload } = stream;
  const spec = streamSpecName(component);
  const terminalType = terminalTypeName(component);
  const decode = `decode${plural(component)}`;
  const terminalUnion =
    terminalComponents.length > 0 ? terminalComponents.map((c) => `T.${names.type(c)}`).join(" | ") : "never";
  const lines = [
    `/**`,
    ` * The events of ${operations.map((o) => `\`${o}\``).join(", ")}: each message's data is a \`${component}\`,`,
    ` * checked at the receive level by \`${names.receiveName(component)}\` (strict checking is the`,
    ` * \`strict\` option); ${terminal.length > 0 ? terminal.map((t) => `\`${t}\``).join(", ") : "no type"} ${terminal.length === 1 ? "ends" : "end"} the stream (\`x-terminal\`).`,
    ...(payload !== undefined ? [` * Frames are read nested or flattened (payload member \`${payload}\`).`] : []),
    ` */`,
    `export const ${spec}: EventStreamSpec<T.${names.type(component)}> = { validate: ${names.receiveName(component)}, terminal: ${JSON.stringify(terminal)}${payload !== undefined ? `, payload: ${JSON.stringify(payload)}` : ""} };`,
    ``,
    `/** The events after which the server sends nothing. */`,
    `export type ${terminalType} = ${terminalUnion};`,
    ``,
    `/** True for ${terminal.length > 0 ? terminal.map((t) => `\`${t}\``).join(", ") : "no event"}: the stream ends after it. */`,
    `export const isTerminal${component} = (event: { type: unknown }): event is ${terminalType} => ${spec}.terminal.includes(event.type as string);`,
    ``,
    `/** Typed events of one \`${component}\` stream, one per \`next()\` (runtime: decodeTypedEvents). */`,
    `export const ${decode} = <V extends OnInvalid = "throw">(source: SseSource, options?: DecodeEventsOptions & { onInvalid?: V | undefined }): AsyncIterableIterator<DecodedItemFor<V, T.${names.type(component)}>> =>`,
    `  decodeTypedEvents(source, ${spec}, options);`,
    ``,
    `/** Like \`${decode}\`, one array per network chunk (the fast path). */`,
    `export const ${decode}Batches = <V extends OnInvalid = "throw">(source: SseSource, options?: DecodeEventsOptions & { onInvalid?: V | undefined }): AsyncIterableIterator<DecodedItemFor<V, T.${names.type(component)}>[]> =>`,
    `  decodeTypedEventBatches(source, ${spec}, options);`,
    ``,
    `/** One SSE message -> a \`${component}\` or a StreamDecodeError (never throws). */`,
    `export const ${decode}Message = (message: SseMessage, options?: DecodeOptions): DecodedItem<T.${names.type(component)}> => decodeTypedEventMessage(message, ${spec}, options);`,
  ];
  if (short) {
    lines.push(
      ``,
      `/** The schema's one event stream, by its short names. */`,
      `export type TerminalEvent = ${terminalType};`,
      `export { isTerminal${component} as isTerminalEvent, ${decode} as decodeEvents, ${decode}Batches as decodeEventBatches, ${decode}Message as decodeEventMessage };`,
    );
  }
  return lines.join("\n");
}

/** events.ts for `model`, or no file where it has no event stream; `names` are the run's (`context.names`). */
export function emitEvents(model: LoadedSchema, names: ComponentNames = componentNames(model)): EmittedFile[] {
  const streams = eventStreams(model);
  if (streams.length === 0) return [];
  const flat = streams.some((s) => s.payload !== undefined);
  const imports = streams.map(
    (s) => `import { ${names.receiveName(s.component)} } from "./validators/${names.receiveFile(s.component)}.js";`,
  );
  const contents = [
    header(model, "//").trimEnd(),
    `/**`,
    ` * The schema's event streams: for each, the spec the runtime's typed event`,
    ` * layer and the client's resumable stream read (validator, terminal types),`,
    ` * and that layer bound to it.`,
    ` */`,
    `import {`,
    `  decodeTypedEventBatches,`,
    `  decodeTypedEventMessage,`,
    `  decodeTypedEvents,`,
    `  type DecodedItem,`,
    `  type DecodedItemFor,`,
    `  type DecodeEventsOptions,`,
    `  type DecodeOptions,`,
    `  type EventStreamSpec,`,
    `  type OnInvalid,`,
    `  type SseMessage,`,
    `  type SseSource,`,
    ...(flat && checksRevision(model) ? [`  requireCodegenRevision,`] : []),
    `} from ${JSON.stringify(runtimeImport(model, FILE))};`,
    `import type * as T from "./types.js";`,
    ...imports,
    ``,
    // Reading flattened frames (EventStreamSpec.payload) is revision 2 of the contract: an older runtime would ignore it.
    ...(flat && checksRevision(model)
      ? [`requireCodegenRevision(${PAYLOAD_REVISION}, ${JSON.stringify(`mantyx-wire ${model.generatorVersion}`)});`, ``]
      : []),
    streams.map((s) => streamBlock(names, s, streams.length === 1)).join("\n\n"),
    ``,
  ].join("\n");
  return [{ path: FILE, contents }];
}

export const eventsEmitter: Emitter = {
  name: "events",
  emit: (model, context) => ({ files: emitEvents(model, context.names), diagnostics: [] }),
};
