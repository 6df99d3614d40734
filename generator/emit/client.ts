/**
 * Emitter "client": the fetch client of the schema, rendered from
 * `generator/templates/*.hbs`, in four files:
 * - `client-core.ts`: the small core client (options, credentials; the
 *   runtime's ClientBase), no operation;
 * - `operations.ts`: one function per operation (`createRun(client, body)`),
 *   each referencing only its own table entry and validators, so a program
 *   bundles what it calls (tree shaking; `/* @__PURE__ *\/` definitions);
 * - `operations-unvalidated.ts`: the same functions without any validator;
 * - `client.ts`: the all-in-one class, one method per operation (method
 *   name = operationId).
 *
 * The schema is reduced here to plain template data (operations sorted by
 * operationId; parameters, body and response types by component name), and
 * the template only lays it out. Every schema value reaches the output
 * through a checking helper — `json` (JSON.stringify, for literals), `ident`
 * (must be an identifier), `type` (an expression built here from checked
 * identifiers), `doc` (comment text, `*\/` neutralised) — never `{{{ }}}`.
 * The generated client is a table (one `[method, path, flags, validators]`
 * entry per operation) plus an interface that types one method per entry;
 * `defineOperations` (runtime/client/define.ts) installs the methods, and
 * `operationFunction` (runtime/client/operation-functions.ts) makes the
 * functions, so neither costs code and the HTTP work lives in
 * runtime/client/ once.
 */
import type { OpenAPIObject, ParameterObject } from "openapi3-ts/oas31";
import { header } from "../header.js";
import { templateEnvironment, type TemplateFile } from "../templates.js";
import type { Diagnostic } from "../diagnostics.js";
import { entrySource, type TableEntry } from "./client/table-entry.js";
import type { EmitContext, EmitResult, Emitter, LoadedSchema } from "../model.js";
import { bindingName, IDENTIFIER } from "./identifier.js";
import { componentNames, type ComponentNames } from "./component-names.js";
import { answerOf, bodyOf, clientOptionOf, parametersOf, type ParamShape } from "./client/shapes.js";
import { InlineTypes, printed, type PrintedType } from "./client/inline-types.js";
import { apiKeyStandsFor, requirementsOf, securityModel, type SecurityModel } from "./client/security.js";
import { eventStreams, isResumableStream, streamItemComponent } from "./event-streams.js";
import { functionNames, methodNames } from "./operation-names.js";
import { propertyKey } from "./types/ts-type.js";
import { streamSpecName, terminalTypeName } from "./events.js";
import { deref, operationsOf, requestBodyComponent } from "./operations.js";
import { checksRevision, runtimeImport } from "./runtime-import.js";

/** The codegen/v1 revision of operation functions, the client class and defineOperations (runtime/codegen/v1.ts): 5, `operation`, entries' `extras`, `eventStream` with `checkEvent`; 6, entries' `pathStyles`; 7, `HttpClient` with `schemeCredentials`; 8, the receive-level validators they bundle may call `tolerated`; 9, item streams as real APIs describe them (`eitherKind`, entries' `sentinel`, `resume` and `accept`). */
export const OPERATION_FUNCTIONS_REVISION = 9;

/**
 * Operations whose answer needs more than "JSON in, JSON out":
 * - a `text/event-stream` success response -> a resumable event stream
 *   (its item schema's spec from ./events.ts, its `x-resume` settings);
 * - `x-once-per: <body field>` -> at most one request per value of that
 *   field, and the statuses of `x-outcomes` answered as values.
 */
type OperationKind = "json" | "stream" | "once" | "items" | "either";

interface ParamData {
  name: string;
  /** The name in the URL/header, when it differs from a JS identifier. */
  wireName: string;
  tsType: PrintedType;
  required: boolean;
  description: string;
}

/** One group of the parameters object (`query`, `header`, `cookie`): its members as `{ "name"?: Type; ... }`. */
interface ParamGroup {
  where: string;
  required: boolean;
  type: PrintedType;
}

export interface OperationData {
  id: string;
  /** `x-pagination`: the client also gets `<id>Pages`, the pages as an async iteration. */
  paged: boolean;
  kind: OperationKind;
  method: string;
  path: string;
  summary: string;
  description: string;
  scopes: string[];
  idempotent: boolean;
  /** Path parameters not filled from a client option, in path order: the method's leading arguments. */
  pathParams: ParamData[];
  /** The body argument's type, when the method takes one. */
  bodyArg: { type: PrintedType; required: boolean } | undefined;
  bodyType: string | undefined;
  /** The body's validators: the fast one, and its all-errors build (for the list of every problem) in validators/<allErrorsFile>.js. */
  body: { validate: string; validateAll: string; allErrorsFile: string } | undefined;
  /** The parameters object (query, header, cookie), when the operation has any. */
  params: { type: PrintedType; required: boolean } | undefined;
  /** The operation's table entry, as data (./client/table-entry.ts). */
  table: TableEntry;
  /** The entry as TypeScript source (`entrySource`), for the templates. */
  entry: string;
  /** The same entry without validators (for operations-unvalidated.ts): a body taken unchecked, an event spec without its validator. */
  unvalidatedEntry: string;
  /**
   * The entry needs `extras: operationExtras` as an operation function's
   * (runtime/client/extras.ts): it has parameters, a body that is not JSON,
   * or a security alternative with a basic, query or cookie scheme. (defineOperations gives it to every
   * entry of the class.)
   */
  extras: boolean;
  /** The name of the operation answering the stream's status probe (`x-resume`'s `status.operation`). */
  probe: string | undefined;
  responseType: PrintedType;
  /** For an at-most-once operation: the union of its outcome names. */
  outcomeNames: string;
  /** For a JSON-or-stream operation: the JSON answer's type, and the overloads on the flag property (none without one). */
  either: { jsonType: PrintedType; overloads: { bodyType: PrintedType; result: PrintedType }[] } | undefined;
  /** The overloads of a JSON-or-stream operation with a flag property (else none). */
  overloads: { bodyType: PrintedType; result: PrintedType }[];
  /** An item stream or a JSON-or-stream answer: its options take the item stream's (`resume`, `lastEventId`, ...). */
  itemOptions: boolean;
  /** For a resumable stream: its item schema component, and the union of its terminal variants (./events.ts). */
  itemType: string | undefined;
  terminalType: string | undefined;
  statuses: string[];
}

/** What the client emitter reports without failing (emit/diagnostics.ts). */
export interface ClientReport {
  readonly degraded: readonly { readonly pointer: string; readonly reason: string }[];
  readonly leftOut: readonly { readonly pointer: string; readonly reason: string }[];
}

/** The names an operation's function or method gives its other arguments (generator/templates/operation-args.hbs, operations.ts.hbs), and the types namespace. */
const METHOD_ARGUMENTS = ["client", "body", "params", "options", "T"];

function camel(name: string): string {
  const out = name.replace(/[^A-Za-z0-9_$]+(.)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase());
  const lower = out.charAt(0).toLowerCase() + out.slice(1);
  return IDENTIFIER.test(lower) ? lower : `_${lower}`;
}

/** `{ "X-Request-Id"?: string; page?: number }` for one group of parameters. */
function groupType(params: readonly ParamShape[]): PrintedType {
  const members = params.map((p) => `${propertyKey(p.wireName)}${p.required ? "" : "?"}: ${p.type.printed}`);
  return printed(`{ ${members.join("; ")} }`);
}

/** What the client degrades or leaves out for `model` (the emitter's diagnostics; builds the operation data again). */
export function clientReport(model: LoadedSchema): ClientReport {
  return operationTable(model, componentNames(model)).report;
}

/** Whether the client takes `credentials` by scheme: the schema has schemes that `apiKey` does not stand for (./client/security.ts). */
const takesSchemeCredentials = (doc: OpenAPIObject, security: SecurityModel): boolean =>
  security.schemes.length > 0 &&
  !apiKeyStandsFor(
    doc,
    operationsOf(doc).map((entry) => entry.op),
    security,
  );

/** The client's operations, as data: one per table entry, by name. */
export function operationData(model: LoadedSchema): OperationData[] {
  return operationTable(model, componentNames(model)).operations;
}

/** The operations, and what building them degraded or left out; components named by `naming`. */
function operationTable(
  model: LoadedSchema,
  naming: ComponentNames,
): { operations: OperationData[]; report: ClientReport } {
  const doc = model.document;
  const ops: OperationData[] = [];
  const types = new InlineTypes(model, naming);
  const security = securityModel(doc);
  const leftOut: { pointer: string; reason: string }[] = [...security.unsupported];
  const entries = operationsOf(doc);
  // With per-scheme credentials only: entries name their security alternatives.
  const perScheme = takesSchemeCredentials(doc, security);
  const names = methodNames(entries);
  for (const entry of entries) {
    const { path, method, op } = entry;
    const id = names.get(entry)!;
    const extensions = op as Record<string, unknown>;
    const resumable = isResumableStream(op);
    const answer = answerOf(doc, entry, types, resumable, leftOut);
    const all = parametersOf(doc, entry, types, leftOut);
    // In path order: the method's leading arguments, as the runtime fills the template.
    const pathParams = all
      .filter((p) => p.in === "path")
      .sort((a, b) => path.indexOf(`{${a.wireName}}`) - path.indexOf(`{${b.wireName}}`));
    // Argument names: never a reserved word (`{class}`), an argument of their own (`client`, `body`, `params`, `options`) or another path parameter's (`{a.b}`, `{a-b}`).
    const argNames = new Set(METHOD_ARGUMENTS);
    const argName = new Map(
      pathParams.map((p) => {
        const name = bindingName(camel(p.wireName), argNames);
        argNames.add(name);
        return [p, name] as const;
      }),
    );
    const toData = (p: ParamShape): ParamData => ({
      name: argName.get(p)!,
      wireName: p.wireName,
      tsType: p.type,
      required: p.required,
      description: p.description,
    });
    // The resumable stream's own query and header (resume position) are the runtime's.
    const others = resumable ? [] : all.filter((p) => p.in !== "path");
    const responses = Object.keys(op.responses ?? {}).sort();
    const bodyType = requestBodyComponent(doc, op);
    const bodyShape = bodyOf(doc, entry, types);
    const oncePer = extensions["x-once-per"];
    const kind: OperationKind =
      answer.kind === "resumable"
        ? "stream"
        : answer.kind === "items"
          ? answer.json !== undefined
            ? "either"
            : "items"
          : typeof oncePer === "string"
            ? "once"
            : "json";
    const idempotent = method === "get" || method === "delete" || extensions["x-idempotent"] === true;
    let probe: string | undefined;
    let itemType: string | undefined;
    let stream: TableEntry["stream"];
    if (kind === "stream") {
      itemType = streamItemComponent(doc, op.responses as Record<string, unknown>);
      if (itemType === undefined)
        throw new Error(
          `${id}: a text/event-stream answer needs an item schema (x-item-schema / itemSchema) that is a component $ref.`,
        );
      const resume = (extensions["x-resume"] ?? {}) as { query?: unknown; status?: unknown };
      const probeName = (resume.status as { operation?: unknown } | undefined)?.operation;
      if (typeof probeName === "string" && IDENTIFIER.test(probeName)) probe = probeName;
      const item = eventStreams(model).find((s) => s.component === itemType)!;
      stream = {
        spec: streamSpecName(itemType),
        terminal: item.terminal,
        payload: item.payload,
        resumeQuery: typeof resume.query === "string" ? resume.query : undefined,
        status: resume.status,
      };
    }
    const styledPath = pathParams.filter((p) => p.pathStyle !== undefined && p.clientOption === undefined);
    let params: OperationData["params"];
    const paramSpec: Array<TableEntry["params"][number]> = [];
    if (others.length > 0) {
      const groups: ParamGroup[] = [];
      for (const where of ["query", "header", "cookie"] as const) {
        const group = others
          .filter((p) => p.in === where)
          .sort((a, b) => (a.wireName < b.wireName ? -1 : a.wireName > b.wireName ? 1 : 0));
        if (group.length === 0) continue;
        groups.push({ where, required: group.some((p) => p.required), type: groupType(group) });
        // Header and cookie parameters all `simple` stay a list of names (revision 4's form).
        paramSpec.push({
          where,
          list: where !== "query" && group.every((p) => p.style === "simple"),
          members: group.map((p) => [p.wireName, p.style] as const),
        });
      }
      params = {
        type: printed(`{ ${groups.map((g) => `${g.where}${g.required ? "" : "?"}: ${g.type.printed}`).join("; ")} }`),
        required: groups.some((g) => g.required),
      };
    }
    let extras = others.length > 0 || bodyShape?.media !== undefined || styledPath.length > 0;
    let requirements: string[][] | undefined;
    // The resumable stream too: each of its connections sends the call's headers and query, credentials included.
    if (perScheme && (op.security ?? doc.security) !== undefined) {
      requirements = requirementsOf(doc, op, security);
      // The runtime sends a bearer token or a header key itself; the other schemes through extras.
      const plain = (name: string): boolean =>
        security.schemes.some(
          (s) => s.name === name && (s.kind === "bearer" || (s.kind === "apiKey" && s.in === "header")),
        );
      if (requirements.some((names) => !names.every(plain))) extras = true;
    }
    const pagination = extensions["x-pagination"] as
      | { cursorParam?: unknown; nextCursor?: unknown; items?: unknown }
      | undefined;
    const paged =
      pagination !== undefined &&
      typeof pagination.cursorParam === "string" &&
      typeof pagination.nextCursor === "string" &&
      typeof pagination.items === "string";
    let outcomeNames = "never";
    let once: TableEntry["once"];
    if (kind === "once") {
      const outcomes = (extensions["x-outcomes"] ?? {}) as Record<string, string>;
      once = {
        key: oncePer,
        outcomes: Object.keys(outcomes)
          .sort()
          .map((status) => [Number(status), outcomes[status]!] as const),
      };
      const outcomeList = [...new Set(Object.values(outcomes))].sort();
      if (outcomeList.length > 0) outcomeNames = outcomeList.map((n) => JSON.stringify(n)).join(" | ");
    }
    const table: TableEntry = {
      method: entry.httpMethod,
      path,
      idempotent: extensions["x-idempotent"] === true,
      emptyOk: (answer.kind === "json" || answer.kind === "text" || answer.kind === "blob") && answer.emptyOk,
      // One build per body, the all-errors one: a body is checked once per call, and a program bundles each validator it imports.
      bodyValidator: bodyType !== undefined ? naming.allErrorsName(bodyType) : undefined,
      takesBody: bodyShape !== undefined,
      bodyMedia: bodyShape?.media,
      stream,
      pathStyles: styledPath.map((p) => [p.wireName, p.pathStyle!] as const),
      items:
        answer.kind === "items"
          ? {
              mode: answer.mode,
              either: answer.json !== undefined,
              sentinel: answer.sentinel,
              resume: answer.resume === true,
            }
          : undefined,
      answer: answer.kind === "text" || answer.kind === "blob" ? answer.kind : undefined,
      params: paramSpec,
      security: requirements,
      pages: paged
        ? { cursorParam: pagination.cursorParam, nextCursor: pagination.nextCursor, items: pagination.items }
        : undefined,
      once,
    };
    const responseType =
      answer.kind === "items" ? answer.item : answer.kind === "resumable" ? printed("never") : answer.type;
    // A JSON-or-stream operation: its JSON answer's type, and the overloads on the flag property that selects the stream.
    const either =
      answer.kind === "items" && answer.json !== undefined
        ? {
            jsonType: answer.json,
            overloads:
              answer.flag !== undefined && bodyShape !== undefined
                ? [
                    {
                      bodyType: printed(
                        `${bodyType !== undefined ? `T.${naming.type(bodyType)}` : `(${bodyShape.type.printed})`} & { ${propertyKey(answer.flag)}: true }`,
                      ),
                      result: printed(`AsyncIterable<${answer.item.printed}>`),
                    },
                    {
                      bodyType: printed(
                        `${bodyType !== undefined ? `T.${naming.type(bodyType)}` : `(${bodyShape.type.printed})`} & { ${propertyKey(answer.flag)}?: false | undefined }`,
                      ),
                      result: answer.json,
                    },
                  ]
                : [],
          }
        : undefined;
    ops.push({
      id,
      paged,
      kind,
      method: entry.httpMethod,
      path,
      summary: op.summary ?? id,
      description: (op.description ?? "").trim(),
      scopes: (extensions["x-required-scopes"] as string[] | undefined) ?? [],
      idempotent,
      pathParams: pathParams.filter((p) => p.clientOption === undefined).map(toData),
      // A validated body is always passed (its validator decides); another may be left out when the document says so
      // (`requestBody.required` is false by default) and no required argument follows it.
      bodyArg:
        bodyShape === undefined
          ? undefined
          : {
              type: bodyType !== undefined ? printed(`T.${naming.type(bodyType)}`) : bodyShape.type,
              required: bodyType !== undefined || bodyShape.required || params?.required === true,
            },
      bodyType: bodyType === undefined ? undefined : naming.type(bodyType),
      body:
        bodyType === undefined
          ? undefined
          : {
              validate: naming.validatorName(bodyType),
              validateAll: naming.allErrorsName(bodyType),
              allErrorsFile: naming.allErrorsFile(bodyType),
            },
      params,
      table,
      entry: entrySource(table, false),
      unvalidatedEntry: entrySource(table, true),
      extras,
      probe,
      responseType,
      outcomeNames,
      itemType: itemType === undefined ? undefined : naming.type(itemType),
      either,
      overloads: either?.overloads ?? [],
      itemOptions: kind === "items" || kind === "either",
      terminalType: itemType === undefined ? undefined : terminalTypeName(itemType),
      statuses: responses,
    });
  }
  return {
    operations: ops.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    report: { degraded: types.degraded, leftOut },
  };
}

/** Handlebars with only checking helpers, for template `file` of generator/templates/ (and its partials); HTML escaping off nowhere, since nothing is inserted raw. */
export function createRenderer(file: TemplateFile = "client.ts.hbs"): (data: unknown) => string {
  // Precompiled in the published bundle (generator/templates.ts).
  const { hb, template } = templateEnvironment();
  const safe = (s: string) => new hb.SafeString(s);
  hb.registerHelper("json", (v: unknown) => safe(JSON.stringify(v) ?? "undefined"));
  hb.registerHelper("ident", (v: unknown) => {
    if (typeof v !== "string" || !IDENTIFIER.test(v))
      throw new Error(`template: ${JSON.stringify(v)} is not an identifier`);
    return safe(v);
  });
  hb.registerHelper("type", (v: unknown) => {
    // A type printed from a type tree (./client/inline-types.ts), or one built here from identifiers.
    if (typeof v === "object" && v !== null && typeof (v as PrintedType).printed === "string")
      return safe((v as PrintedType).printed);
    if (typeof v !== "string" || !/^[A-Za-z0-9_$. |]+$/.test(v))
      throw new Error(`template: ${JSON.stringify(v)} is not a type expression`);
    return safe(v);
  });
  hb.registerHelper("doc", (v: unknown) => {
    const text = String(v ?? "")
      .replace(/\*\//g, "*\\/")
      .replace(/\r?\n/g, "\n   * ");
    return safe(text.replace(/[ \t]+$/gm, ""));
  });
  hb.registerHelper("line", (v: unknown) => {
    if (typeof v !== "string" || /[\r\n]/.test(v)) throw new Error(`template: ${JSON.stringify(v)} is not one line`);
    return safe(v);
  });
  hb.registerHelper("code", (v: unknown) => {
    // Source text built by this emitter from JSON.stringify'd values and checked identifiers, one line.
    if (typeof v !== "string" || /[\r\n]/.test(v))
      throw new Error(`template: ${JSON.stringify(v)} is not one line of code`);
    return safe(v);
  });
  hb.registerHelper("docIn", (v: unknown, indent: unknown) => {
    // Comment text inside a comment indented by `indent` (spaces only).
    if (typeof indent !== "string" || !/^ *$/.test(indent))
      throw new Error(`template: ${JSON.stringify(indent)} is not an indentation`);
    const text = String(v ?? "")
      .replace(/\*\//g, "*\\/")
      .replace(/\r?\n/g, `\n${indent} * `);
    return safe(text.replace(/[ \t]+$/gm, ""));
  });
  hb.registerHelper("eq", (a: unknown, b: unknown) => a === b);
  hb.registerHelper("obj", (options: { hash: Record<string, unknown> }) => ({ ...options.hash }));
  for (const partial of ["operation-args", "operation-result", "operation-doc"] as const)
    hb.registerPartial(partial, template(`${partial}.hbs`));
  const main = template(file);
  return (data) => main(data);
}

/** The client's files for `model`; `context` gives the run's component names. */
export function emitClient(model: LoadedSchema, context: Pick<EmitContext, "names">): EmitResult {
  const { operations, report } = operationTable(model, context.names);
  // Each validator from its own module, not from validators/index.js: in
  // plain Node (no bundler to drop the rest) importing the client then loads
  // the request bodies' validators only, not all of them.
  const imports = new Map<string, string>();
  for (const op of operations) {
    if (op.body === undefined) continue;
    imports.set(op.body.validateAll, `./validators/${op.body.allErrorsFile}.js`);
  }
  const clientOptions = new Map<string, { param: string; description: string }>();
  for (const { item, op } of operationsOf(model.document)) {
    for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) =>
      deref<ParameterObject>(model.document, p),
    )) {
      const option = clientOptionOf(p);
      if (option !== undefined) clientOptions.set(option, { param: p.name, description: p.description ?? "" });
    }
  }
  const sortedOptions = [...clientOptions].sort(([a], [b]) => (a < b ? -1 : 1));
  const security = securityModel(model.document);
  const perScheme = takesSchemeCredentials(model.document, security);
  const schemes = Object.fromEntries(
    security.schemes.map((scheme) => [
      scheme.name,
      scheme.kind === "apiKey" ? ["apiKey", scheme.in, scheme.parameter] : [scheme.kind],
    ]),
  );
  const declaredName = (model.document as unknown as Record<string, unknown>)["x-client-name"];
  const clientName = typeof declaredName === "string" && IDENTIFIER.test(declaredName) ? declaredName : "ApiClient";
  const prefix = clientName.replace(/Client$/, "") || clientName;
  const ids = new Set(operations.map((op) => op.id));
  const streamItems = [
    ...new Set(operations.map((o) => o.itemType).filter((t): t is string => t !== undefined)),
  ].sort();
  const sortedImports = [...imports].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, from]) => ({ name, from }));
  const common = {
    header: header(model, "//").trimEnd(),
    version: model.generatorVersion,
    runtime: runtimeImport(model, "client.ts"),
    generator: `mantyx-wire ${model.generatorVersion}`,
    clientName,
    coreName: `${prefix}Core`,
    // The client's brand, which its errors carry (runtime/client/errors.ts): none for the default `ApiClient`.
    namedClient: clientName !== "ApiClient",
    brand: clientName.replace(/Client$/, ""),
    optionsName: `${prefix}ClientOptions`,
    callOptionsName: `${prefix}CallOptions`,
    streamOptionsName: `${prefix}StreamOptions`,
    revision: checksRevision(model) ? OPERATION_FUNCTIONS_REVISION : undefined,
    hasOnce: operations.some((op) => op.kind === "once"),
    hasItems: operations.some((op) => op.kind === "items" || op.kind === "either"),
    schemes: (perScheme ? security.schemes : []).map((scheme) => ({
      name: scheme.name,
      basic: scheme.kind === "basic",
      description:
        (/^.*?[.!?](?=\s|$)/.exec(scheme.description.replace(/\s+/g, " ").trim())?.[0] ??
          scheme.description.replace(/\s+/g, " ").trim()) ||
        `${scheme.kind}${scheme.kind === "apiKey" ? ` (${scheme.in} ${scheme.parameter})` : ""}`,
    })),
  };
  const functions = (unvalidated: boolean): string => {
    /**
     * An operation function's kind: the event stream (its probe asked for
     * lazily: it may be defined further down; its events checked by
     * checkEvent, but for their envelope only without validators), an item
     * stream, or none.
     */
    const kindArg = (op: OperationData): string | undefined =>
      op.kind === "stream"
        ? `/* @__PURE__ */ eventStream(${op.probe !== undefined && ids.has(op.probe) ? `() => ${fns.get(op.probe)!}` : "undefined"}${unvalidated ? "" : ", checkEvent"})`
        : op.kind === "items"
          ? "itemStreamKind"
          : op.kind === "either"
            ? "eitherKind"
            : undefined;
    // A validated body is checked by checkedBody (only bodies of JSON answers are sent), an at-most-once operation made so by onceKind.
    const checks = (op: OperationData): boolean =>
      !unvalidated && op.body !== undefined && op.kind !== "stream" && op.kind !== "items";
    const kindOf = (op: OperationData): string | undefined => {
      const once = op.kind === "once" ? "onceKind" : undefined;
      return checks(op)
        ? `/* @__PURE__ */ checkedBody(${once ?? (op.kind === "either" ? "eitherKind" : "")})`
        : (once ?? kindArg(op));
    };
    const withExtras = (entry: string, op: OperationData): string =>
      op.extras ? entry.replace(/ \}$/, ", extras: operationExtras }") : entry;
    const kindImports = [
      ...(operations.some((op) => op.extras) ? ["operationExtras"] : []),
      ...(operations.some(checks) ? ["checkedBody"] : []),
      ...(operations.some((op) => op.kind === "once") ? ["onceKind"] : []),
      ...(operations.some((op) => op.kind === "stream")
        ? unvalidated
          ? ["eventStream"]
          : ["eventStream", "checkEvent"]
        : []),
      ...(operations.some((op) => op.kind === "items") ? ["itemStreamKind"] : []),
      ...(operations.some((op) => op.kind === "either") ? ["eitherKind"] : []),
      ...(operations.some((op) => op.paged) ? ["pagesKind"] : []),
    ];
    const streamValues = unvalidated ? [] : streamItems.map(streamSpecName);
    const streamTypes = streamItems.map(terminalTypeName);
    const validatorImports = unvalidated ? [] : sortedImports;
    // Every name the module has besides the functions (operations.ts.hbs's imports and re-exports).
    const imported = new Set([
      "operation",
      "requireCodegenRevision",
      "DecodedItemFor",
      "OnceOutcome",
      "OnInvalid",
      "RunEventStream",
      "ItemStreamOptions",
      "T",
      common.coreName,
      common.optionsName,
      common.callOptionsName,
      common.streamOptionsName,
      ...kindImports,
      ...streamValues,
      ...streamTypes,
      ...validatorImports.map((v) => v.name),
    ]);
    const fns = functionNames(
      operations.map((op) => op.id),
      imported,
    );
    const withKinds = operations.map((op) => ({
      ...op,
      functionEntry: withExtras(unvalidated ? op.unvalidatedEntry : op.entry, op),
      kindArg: kindOf(op),
    }));
    return createRenderer("operations.ts.hbs")({
      ...common,
      unvalidated,
      operations: withKinds.map((op) => ({ ...op, fn: fns.get(op.id)! })),
      kindImports,
      streamValues: streamValues.join(", "),
      streamTypes: streamTypes.join(", "),
      validatorImports,
    });
  };
  const tidy = (contents: string): string => contents.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n");
  const client = createRenderer("client.ts.hbs")({
    ...common,
    operations,
    streamImports: [...streamItems.map(streamSpecName), ...streamItems.map((t) => `type ${terminalTypeName(t)}`)].join(
      ", ",
    ),
    validatorImports: sortedImports,
  });
  const core = createRenderer("client-core.ts.hbs")({
    ...common,
    operations,
    clientOptions: sortedOptions.map(([name, o]) => ({ name, param: o.param, description: o.description })),
    pathOptions: JSON.stringify(Object.fromEntries(sortedOptions.map(([name, o]) => [o.param, name]))),
    schemesTable: JSON.stringify(schemes),
  });
  return {
    files: [
      { path: "client.ts", contents: tidy(client) },
      { path: "client-core.ts", contents: tidy(core) },
      { path: "operations.ts", contents: tidy(functions(false)) },
      { path: "operations-unvalidated.ts", contents: tidy(functions(true)) },
    ],
    diagnostics: clientDiagnostics(model, report),
  };
}

/** What the client degrades or leaves out, and the webhooks it leaves out (it makes requests, it does not receive them). */
function clientDiagnostics(model: LoadedSchema, report: ClientReport): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { pointer, reason } of [...report.degraded, ...report.leftOut])
    out.push({ level: "warning", emitter: "client", message: `${reason}.`, pointer });
  const webhooks = (model.document as unknown as Record<string, unknown>).webhooks;
  if (webhooks !== null && typeof webhooks === "object" && Object.keys(webhooks).length > 0) {
    out.push({
      level: "warning",
      emitter: "client",
      message: `the document's ${Object.keys(webhooks).length} webhook(s) (${Object.keys(webhooks).sort().join(", ")}) are left out: the client makes requests, it does not receive them; their schemas still become types and validators.`,
      pointer: "/webhooks",
    });
  }
  return out;
}

export const clientEmitter: Emitter = {
  name: "client",
  emit: emitClient,
};
