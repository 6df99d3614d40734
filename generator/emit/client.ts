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
import { header } from "../header.js";
import type { EmittedFile, Emitter, LoadedSchema } from "../model.js";
import { IDENTIFIER } from "./identifier.js";
import { componentName, deref, operationsOf, requestBodyComponent } from "./operations.js";
import { allErrorsFile, allErrorsName, validatorFile, validatorName } from "./validators/names.js";

const TEMPLATE = new URL("../../templates/client.ts.hbs", import.meta.url);

/**
 * Operations that may be sent again after a 5xx or a network failure besides
 * GET/DELETE, because the protocol makes them idempotent: cancel
 * ("idempotent", http-surface.md). Tool results are not among them: the
 * server dedupes on `toolUseId` (§10), but a resend after a lost answer would
 * turn an accepted result into `404 unknown_tool_use`, and §13 asks for one
 * POST per `toolUseId`. Everything is retried on 429 ("not processed").
 */
const IDEMPOTENT_POSTS = new Set(["cancelRun"]);

/** The bits of the runtime's operation flags (runtime/client/core.ts; a test checks they agree). */
export const FLAG_BITS: Record<string, number> = { IDEMPOTENT: 1, EMPTY_OK: 2, STREAM: 4, TOOL_RESULT: 8 };

/**
 * Operations whose answer needs more than "JSON in, JSON out":
 * - a `text/event-stream` success response -> a resumable event stream;
 * - `postToolResult` -> outcome values for its documented 404/409 answers
 *   (wire-protocol.md §5), and at most one POST per `toolUseId`.
 */
type OperationKind = "json" | "stream" | "tool-result";

interface ParamData {
  name: string;
  /** The name in the URL/header, when it differs from a JS identifier. */
  wireName: string;
  tsType: string;
  /** An array parameter (`style: form`, `explode: true`: the name repeated per value). */
  array: boolean;
  required: boolean;
  description: string;
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
  /** Path parameters other than `workspaceSlug` (which comes from the client's `workspace`), in path order: the method's leading arguments. */
  pathParams: ParamData[];
  workspaceScoped: boolean;
  queryParams: ParamData[];
  headerParams: ParamData[];
  /** The name of the generated type of a JSON operation's query parameters (`options.query`), when it has any. */
  queryType: string | undefined;
  bodyType: string | undefined;
  /** The body's validators: the fast one, and its all-errors build (for the list of every problem). */
  body: { validate: string; validateAll: string } | undefined;
  /** The runtime's flags (runtime/client/core.ts), by name; the table holds their sum (`flagBits`). */
  flags: string[];
  flagBits: number;
  responseType: string;
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

function paramData(doc: LoadedSchema["document"], p: ParameterObject): ParamData {
  const schema = deref<SchemaObject | undefined>(doc, p.schema);
  const array = schema?.type === "array";
  return {
    name: camel(p.name),
    wireName: p.name,
    tsType: paramType(array ? deref<SchemaObject | undefined>(doc, schema.items as SchemaObject | undefined) : schema),
    array,
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
    const byIn = (where: string): ParamData[] => params.filter((p) => p.in === where).map((p) => paramData(doc, p));
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
    const bodyType = requestBodyComponent(doc, op, id);
    const kind: OperationKind = stream ? "stream" : id === "postToolResult" ? "tool-result" : "json";
    if (kind !== "json" && pathParams.filter((p) => p.wireName !== "workspaceSlug").length !== 1) {
      throw new Error(`${id}: the client runtime expects exactly one path parameter besides workspaceSlug for a ${kind} operation.`);
    }
    const queryParams = byIn("query");
    const headerParams = byIn("header");
    if (kind === "json" && headerParams.length > 0) {
      throw new Error(`${id}: header parameters are supported on the stream operation only; teach runtime/client/core.ts (#call) and this emitter to pass them.`);
    }
    if (kind === "json" && queryParams.some((p) => p.array && p.tsType !== "string" && p.tsType !== "number")) {
      throw new Error(`${id}: an array query parameter must have string or number items.`);
    }
    // JSON operations take their query parameters as `options.query` (runtime/client/core.ts appends them).
    const queryType = kind === "json" && queryParams.length > 0 ? `${id.charAt(0).toUpperCase()}${id.slice(1)}Query` : undefined;
    const idempotent = method === "get" || method === "delete" || IDEMPOTENT_POSTS.has(id);
    const flags = [
      ...(idempotent ? ["IDEMPOTENT"] : []),
      ...(empty ? ["EMPTY_OK"] : []),
      ...(kind === "stream" ? ["STREAM"] : kind === "tool-result" ? ["TOOL_RESULT"] : []),
    ];
    ops.push({
      id,
      kind,
      method: method.toUpperCase(),
      path,
      summary: op.summary ?? id,
      description: (op.description ?? "").trim(),
      scopes: ((op as Record<string, unknown>)["x-required-scopes"] as string[] | undefined) ?? [],
      idempotent,
      bodyOptional: empty,
      pathParams: pathParams.filter((p) => p.wireName !== "workspaceSlug"),
      workspaceScoped: pathParams.some((p) => p.wireName === "workspaceSlug"),
      queryParams,
      headerParams,
      queryType,
      bodyType,
      body: bodyType === undefined ? undefined : { validate: validatorName(bodyType), validateAll: allErrorsName(bodyType) },
      flags,
      flagBits: flags.reduce((sum, f) => sum + FLAG_BITS[f]!, 0),
      responseType: typeList.length === 0 ? (empty ? "undefined" : "unknown") : typeList.join(" | "),
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
  const render = createRenderer();
  const contents = render({
    header: header(model, "//").trimEnd(),
    version: model.generatorVersion,
    operations,
    validatorImports: [...imports].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, from]) => ({ name, from })),
  });
  return [{ path: "client.ts", contents: contents.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n") }];
}

export const clientEmitter: Emitter = {
  name: "client",
  emit: emitClient,
};
