/**
 * Emitter "client": `generated/client.ts`, a fetch client with one method per
 * operation of the schema (method name = operationId), rendered from
 * `templates/client.ts.hbs`.
 *
 * The schema is reduced here to plain template data (operations sorted by
 * operationId; parameters, body and response types by component name), and
 * the template only lays it out. Every schema value reaches the output
 * through a checking helper — `json` (JSON.stringify, for literals), `ident`
 * (must be an identifier), `type` (an expression built here from checked
 * identifiers), `doc` (comment text, `*\/` neutralised) — never `{{{ }}}`.
 * The generated client is a table (one `[method, path, flags, validators]`
 * entry per operation) plus an interface that types one method per entry;
 * `ClientCore.define` (runtime/client/core.ts) installs the methods, so the
 * methods cost no code and the HTTP work lives in runtime/client/ once.
 */
import { readFileSync } from "node:fs";
import Handlebars from "handlebars";
import type { ParameterObject, SchemaObject } from "openapi3-ts/oas31";
import { assetUrl } from "../assets.js";
import { header } from "../header.js";
import type { EmittedFile, Emitter, LoadedSchema } from "../model.js";
import { IDENTIFIER } from "./identifier.js";
import { streamItemComponent } from "./event-streams.js";
import { streamSpecName, terminalTypeName } from "./events.js";
import { componentName, deref, operationsOf, requestBodyComponent } from "./operations.js";
import { runtimeImport } from "./runtime-import.js";
import { allErrorsFile, allErrorsName, validatorFile, validatorName } from "./validators/names.js";

const TEMPLATE = assetUrl(new URL("../../templates/client.ts.hbs", import.meta.url), "client.ts.hbs", import.meta.url);

/**
 * Operations whose answer needs more than "JSON in, JSON out":
 * - a `text/event-stream` success response -> a resumable event stream
 *   (its item schema's spec from ./events.ts, its `x-resume` settings);
 * - `x-once-per: <body field>` -> at most one request per value of that
 *   field, and the statuses of `x-outcomes` answered as values.
 */
type OperationKind = "json" | "stream" | "once";

interface ParamData {
  name: string;
  /** The name in the URL/header, when it differs from a JS identifier. */
  wireName: string;
  tsType: string;
  required: boolean;
  description: string;
  /** `x-client-option`: filled from this client (and per-call) option instead of an argument. */
  clientOption: string | undefined;
}

export interface OperationData {
  id: string;
  kind: OperationKind;
  method: string;
  path: string;
  summary: string;
  description: string;
  scopes: string[];
  idempotent: boolean;
  /** Some 2xx answer has no body: any success body is optional, and one that is not JSON is ignored. */
  bodyOptional: boolean;
  /** Path parameters not filled from a client option, in path order: the method's leading arguments. */
  pathParams: ParamData[];
  queryParams: ParamData[];
  headerParams: ParamData[];
  bodyType: string | undefined;
  /** The body's validators: the fast one, and its all-errors build (for the list of every problem). */
  body: { validate: string; validateAll: string } | undefined;
  /** The operation's table entry, as TypeScript source (built from checked values here). */
  entry: string;
  responseType: string;
  /** For an at-most-once operation: the union of its outcome names. */
  outcomeNames: string;
  /** For a stream: its item schema component, and the union of its terminal variants (./events.ts). */
  itemType: string | undefined;
  terminalType: string | undefined;
  statuses: string[];
}

/** TypeScript type of a simple parameter schema. */
function paramType(schema: SchemaObject | undefined): string {
  const type = schema?.type;
  if (type === "integer" || type === "number") return "number";
  if (type === "boolean") return "boolean";
  return "string";
}

function camel(name: string): string {
  const out = name.replace(/[^A-Za-z0-9_$]+(.)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase());
  return out.charAt(0).toLowerCase() + out.slice(1);
}

function paramData(p: ParameterObject): ParamData {
  const option = (p as unknown as Record<string, unknown>)["x-client-option"];
  return {
    clientOption: typeof option === "string" && IDENTIFIER.test(option) ? option : undefined,
    name: camel(p.name),
    wireName: p.name,
    tsType: paramType(p.schema as SchemaObject | undefined),
    required: p.required === true,
    description: p.description ?? "",
  };
}

export function operationData(model: LoadedSchema): OperationData[] {
  const doc = model.document;
  const ops: OperationData[] = [];
  for (const { path, method, item, op } of operationsOf(doc)) {
    const id = op.operationId;
    if (id === undefined || !IDENTIFIER.test(id)) throw new Error(`${method.toUpperCase()} ${path} needs an operationId that is a JavaScript identifier (it names the client method).`);
    const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref<ParameterObject>(doc, p));
    const byIn = (where: string): ParamData[] => params.filter((p) => p.in === where).map(paramData);
    // In path order: the method's leading arguments, as the runtime fills the template.
    const pathParams = byIn("path").sort((a, b) => path.indexOf(`{${a.wireName}}`) - path.indexOf(`{${b.wireName}}`));
    const responses = Object.keys(op.responses ?? {}).sort();
    const success = responses.filter((s) => /^2\d\d$/.test(s));
    let stream = false;
    const types = new Set<string>();
    let empty = false;
    for (const status of success) {
      const r = deref<{ content?: Record<string, { schema?: unknown }> }>(doc, op.responses![status]);
      const content = r.content ?? {};
      if (Object.keys(content).length === 0) empty = true;
      for (const media of Object.keys(content).sort()) {
        if (media.startsWith("text/event-stream")) stream = true;
        else types.add(componentName(content[media]!.schema) ?? "unknown");
      }
    }
    const typeList = [...types].sort().map((t) => (t === "unknown" ? t : `T.${t}`));
    if (empty && typeList.length > 0) typeList.push("undefined");
    const bodyType = requestBodyComponent(doc, op);
    const extensions = op as Record<string, unknown>;
    const oncePer = extensions["x-once-per"];
    const kind: OperationKind = stream ? "stream" : typeof oncePer === "string" ? "once" : "json";
    const queryParams = byIn("query");
    const headerParams = byIn("header");
    if (kind !== "stream" && queryParams.length + headerParams.length > 0) {
      throw new Error(`${id}: query and header parameters are supported on the stream operation only; teach runtime/client/core.ts (#call) and this emitter to pass them.`);
    }
    const idempotent = method === "get" || method === "delete" || extensions["x-idempotent"] === true;
    const fields: string[] = [`method: ${JSON.stringify(method.toUpperCase())}`, `path: ${JSON.stringify(path)}`];
    if (extensions["x-idempotent"] === true) fields.push("idempotent: true");
    if (empty) fields.push("emptyOk: true");
    if (bodyType !== undefined) fields.push(`body: [${validatorName(bodyType)}, ${allErrorsName(bodyType)}]`);
    let itemType: string | undefined;
    if (kind === "stream") {
      itemType = streamItemComponent(doc, op.responses as Record<string, unknown>);
      if (itemType === undefined) throw new Error(`${id}: a text/event-stream answer needs an item schema (x-item-schema / itemSchema) that is a component $ref.`);
      const resume = (extensions["x-resume"] ?? {}) as { query?: unknown; status?: unknown };
      const parts = [`events: ${streamSpecName(itemType)}`];
      if (typeof resume.query === "string") parts.push(`resumeQuery: ${JSON.stringify(resume.query)}`);
      if (resume.status !== undefined) parts.push(`status: ${JSON.stringify(resume.status)}`);
      fields.push(`stream: { ${parts.join(", ")} }`);
    }
    let outcomeNames = "never";
    if (kind === "once") {
      const outcomes = (extensions["x-outcomes"] ?? {}) as Record<string, string>;
      const table = Object.keys(outcomes)
        .sort()
        .map((status) => `${Number(status)}: ${JSON.stringify(outcomes[status])}`);
      fields.push(`once: { key: ${JSON.stringify(oncePer)}, outcomes: { ${table.join(", ")} } }`);
      const names = [...new Set(Object.values(outcomes))].sort();
      if (names.length > 0) outcomeNames = names.map((n) => JSON.stringify(n)).join(" | ");
    }
    ops.push({
      id,
      kind,
      method: method.toUpperCase(),
      path,
      summary: op.summary ?? id,
      description: (op.description ?? "").trim(),
      scopes: (extensions["x-required-scopes"] as string[] | undefined) ?? [],
      idempotent,
      bodyOptional: empty,
      pathParams: pathParams.filter((p) => p.clientOption === undefined),
      queryParams,
      headerParams,
      bodyType,
      body: bodyType === undefined ? undefined : { validate: validatorName(bodyType), validateAll: allErrorsName(bodyType) },
      entry: `{ ${fields.join(", ")} }`,
      responseType: typeList.length === 0 ? (empty ? "undefined" : "unknown") : typeList.join(" | "),
      outcomeNames,
      itemType,
      terminalType: itemType === undefined ? undefined : terminalTypeName(itemType),
      statuses: responses,
    });
  }
  return ops.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Handlebars with only checking helpers; HTML escaping off nowhere, since nothing is inserted raw. */
export function createRenderer(): (data: unknown) => string {
  const hb = Handlebars.create();
  const safe = (s: string) => new hb.SafeString(s);
  hb.registerHelper("json", (v: unknown) => safe(JSON.stringify(v) ?? "undefined"));
  hb.registerHelper("ident", (v: unknown) => {
    if (typeof v !== "string" || !IDENTIFIER.test(v)) throw new Error(`template: ${JSON.stringify(v)} is not an identifier`);
    return safe(v);
  });
  hb.registerHelper("type", (v: unknown) => {
    // Built by this emitter from identifiers: `T.Name`, unions, primitives.
    if (typeof v !== "string" || !/^[A-Za-z0-9_$. |]+$/.test(v)) throw new Error(`template: ${JSON.stringify(v)} is not a type expression`);
    return safe(v);
  });
  hb.registerHelper("doc", (v: unknown) => {
    const text = String(v ?? "").replace(/\*\//g, "*\\/").replace(/\r?\n/g, "\n   * ");
    return safe(text.replace(/[ \t]+$/gm, ""));
  });
  hb.registerHelper("line", (v: unknown) => {
    if (typeof v !== "string" || /[\r\n]/.test(v)) throw new Error(`template: ${JSON.stringify(v)} is not one line`);
    return safe(v);
  });
  hb.registerHelper("code", (v: unknown) => {
    // Source text built by this emitter from JSON.stringify'd values and checked identifiers, one line.
    if (typeof v !== "string" || /[\r\n]/.test(v)) throw new Error(`template: ${JSON.stringify(v)} is not one line of code`);
    return safe(v);
  });
  hb.registerHelper("eq", (a: unknown, b: unknown) => a === b);
  const source = readFileSync(TEMPLATE, "utf8");
  return hb.compile(source, { strict: true, noEscape: false });
}

export function emitClient(model: LoadedSchema): EmittedFile[] {
  const operations = operationData(model);
  // Each validator from its own module, not from validators/index.js: in
  // plain Node (no bundler to drop the rest) importing the client then loads
  // the request bodies' validators only, not all of them.
  const imports = new Map<string, string>();
  for (const op of operations) {
    if (op.bodyType === undefined) continue;
    imports.set(validatorName(op.bodyType), `./validators/${validatorFile(op.bodyType)}.js`);
    imports.set(allErrorsName(op.bodyType), `./validators/${allErrorsFile(op.bodyType)}.js`);
  }
  const clientOptions = new Map<string, { param: string; description: string }>();
  for (const { item, op } of operationsOf(model.document)) {
    for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref<ParameterObject>(model.document, p))) {
      const data = paramData(p);
      if (data.clientOption !== undefined && data.clientOption !== undefined) clientOptions.set(data.clientOption, { param: p.name, description: p.description ?? "" });
    }
  }
  const streamItems = [...new Set(operations.map((o) => o.itemType).filter((t): t is string => t !== undefined))].sort();
  const render = createRenderer();
  const contents = render({
    header: header(model, "//").trimEnd(),
    version: model.generatorVersion,
    runtime: runtimeImport(model, "client.ts"),
    generator: `mantyx-wire ${model.generatorVersion}`,
    operations,
    streamImports: [...streamItems.map(streamSpecName), ...streamItems.map((t) => `type ${terminalTypeName(t)}`)].join(", "),
    clientOptions: [...clientOptions].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, o]) => ({ name, param: o.param, description: o.description })),
    pathOptions: JSON.stringify(Object.fromEntries([...clientOptions].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, o]) => [o.param, name]))),
    validatorImports: [...imports].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, from]) => ({ name, from })),
  });
  return [{ path: "client.ts", contents: contents.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n") }];
}

export const clientEmitter: Emitter = {
  name: "client",
  emit: emitClient,
};
