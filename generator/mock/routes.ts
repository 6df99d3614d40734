/**
 * The mock's routing table, read from the OpenAPI document: each
 * operation's method and path template (as a matcher), the scopes it needs
 * (`x-required-scopes`), whether its body is required, and its request body
 * component, checked by an all-errors validator compiled from the same
 * schema with the same ajv configuration and vendor keywords as the
 * generated `validate<Name>AllErrors` modules (generator/emit/validators/ajv.ts),
 * so the mock refuses exactly what the generated validators refuse
 * (test/mock/request-validation.test.ts compares them).
 */
import type { ValidateFunction } from "ajv";
import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  ReferenceObject,
  RequestBodyObject,
} from "openapi3-ts/oas31";
import { deref, jsonMediaTypeOf, operationsOf, requestBodyComponent } from "../emit/operations.js";
import { addComponents, componentRef, createValidatorAjv, DOCUMENT_ID } from "../emit/validators/ajv.js";

/** One problem of a refused body, as the 400 answer lists it. */
export interface BodyIssue {
  /** JSON pointer into the body ("" for the body itself). */
  readonly path: string;
  /** The JSON Schema or vendor keyword that failed. */
  readonly rule: string;
  readonly message: string;
}

export interface Route {
  readonly operationId: string;
  readonly method: string;
  /** The path template, e.g. `/api/v1/workspaces/{workspaceSlug}/agent-runs/{runId}`. */
  readonly template: string;
  readonly scopes: readonly string[];
  /** The request body's component, when the operation takes a JSON body. */
  readonly bodyComponent?: string;
  readonly bodyRequired: boolean;
  /** What the request body is: JSON (checked by `check`, a component or an inline schema), another media type (read and not checked), or none declared. */
  readonly bodyMedia: "json" | "other" | "none";
  /** The path parameters of `path` (decoded), or undefined when it does not match. Throws URIError on a bad percent-encoding. */
  match(path: string): Record<string, string> | undefined;
  /** The body's problems at the strict level (empty when it is valid). */
  check(body: unknown): BodyIssue[];
  /** The problems of the declared query parameters present in `query` (path `/query/<name>`); undeclared ones are ignored. */
  checkQuery(query: URLSearchParams): BodyIssue[];
}

/** Every operation of `doc` as a route (validators compiled once, here). */
export function routesOf(doc: OpenAPIObject): Route[] {
  const entries = operationsOf(doc);
  const components = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  // An inline JSON body schema is checked as a component of its own, under a name no component has, so its `$ref`s resolve as the others'.
  const inline = new Map<OperationObject, string>();
  for (const { op } of entries) {
    const schema = inlineBodySchema(doc, op);
    if (schema === undefined) continue;
    let name = `x-mock-inline-body-${inline.size + 1}`;
    while (name in components) name = `${name}-`;
    inline.set(op, name);
  }
  const bodies = [
    ...new Set(
      entries
        .map((e) => requestBodyComponent(doc, e.op) ?? inline.get(e.op))
        .filter((n): n is string => n !== undefined),
    ),
  ];
  const ajv = createValidatorAjv({ allErrors: true, code: { source: false, optimize: false } });
  addComponents(
    ajv,
    (inline.size === 0
      ? components
      : {
          ...components,
          ...Object.fromEntries([...inline].map(([op, name]) => [name, inlineBodySchema(doc, op)])),
        }) as never,
  );
  const validators = new Map<string, ValidateFunction>(
    bodies.map((name) => [name, ajv.getSchema(componentRef(name))!]),
  );
  return entries.map(({ path, httpMethod, op, item }) => {
    const bodyComponent = requestBodyComponent(doc, op);
    const queryChecks = queryParameters(doc, item, op).map((p) => ({
      name: p.name,
      array: isArraySchema(doc, p.schema),
      validate: ajv.compile(withDocumentRefs(p.schema ?? {})),
    }));
    const validated = bodyComponent ?? inline.get(op);
    const validate = validated === undefined ? undefined : validators.get(validated);
    const content = op.requestBody === undefined ? undefined : deref<RequestBodyObject>(doc, op.requestBody).content;
    return {
      operationId: op.operationId ?? `${httpMethod} ${path}`,
      method: httpMethod,
      template: path,
      scopes: scopesOf(op),
      ...(bodyComponent === undefined ? {} : { bodyComponent }),
      bodyRequired: op.requestBody !== undefined && deref<RequestBodyObject>(doc, op.requestBody).required === true,
      bodyMedia:
        content === undefined || Object.keys(content).length === 0
          ? "none"
          : jsonMediaTypeOf(content) !== undefined
            ? "json"
            : "other",
      match: matcher(path),
      check: (body) => {
        if (validate === undefined || validate(body)) return [];
        // Without the `if` issues, which only echo the issue before them (as the client lists them: runtime/client/request-check.ts).
        return (validate.errors ?? [])
          .filter((e) => e.keyword !== "if")
          .map((e) => ({ path: e.instancePath, rule: e.keyword, message: e.message ?? e.keyword }));
      },
      checkQuery: (query) =>
        queryChecks.flatMap(({ name, array, validate }) => {
          const raw = query.getAll(name);
          if (raw.length === 0) return [];
          // The text as sent, else as a number or boolean (a query string has no types; the schema says which it means).
          const last = raw[raw.length - 1]!;
          if (validate(array ? raw : last)) return [];
          if (validate(array ? raw.map(coerce) : coerce(last))) return [];
          return (validate.errors ?? []).map((e) => ({
            path: `/query/${name}${e.instancePath}`,
            rule: e.keyword,
            message: e.message ?? e.keyword,
          }));
        }),
    };
  });
}

/** The schema of an operation's JSON request body when it is inline (not a component `$ref`), else undefined. */
function inlineBodySchema(doc: OpenAPIObject, op: OperationObject): unknown {
  if (op.requestBody === undefined || requestBodyComponent(doc, op) !== undefined) return undefined;
  const content = deref<RequestBodyObject>(doc, op.requestBody).content;
  const media = jsonMediaTypeOf(content);
  return media === undefined ? undefined : (content?.[media]?.schema ?? undefined);
}

/** The operation's query parameters (path-level ones first, an operation's own overriding by name). */
function queryParameters(doc: OpenAPIObject, item: PathItemObject, op: OperationObject): ParameterObject[] {
  const byName = new Map<string, ParameterObject>();
  for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])] as Array<ParameterObject | ReferenceObject>) {
    const param = deref<ParameterObject>(doc, p);
    if (param.in === "query") byName.set(param.name, param);
  }
  return [...byName.values()];
}

function isArraySchema(doc: OpenAPIObject, schema: unknown): boolean {
  const s = schema === undefined ? undefined : deref<Record<string, unknown>>(doc, schema as never);
  return s?.["type"] === "array";
}

/** A query string's text as JSON would carry it: numbers and booleans parsed, the rest kept as text. */
function coerce(text: string): unknown {
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return text;
}

/** A parameter's schema with its `#/components/...` refs pointing into the document ajv holds. */
function withDocumentRefs(schema: unknown): Record<string, unknown> {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== "object" || v === null) return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        k === "$ref" && typeof x === "string" && x.startsWith("#/") ? `${DOCUMENT_ID}${x}` : walk(x),
      ]),
    );
  };
  return walk(schema) as Record<string, unknown>;
}

function scopesOf(op: OperationObject): string[] {
  const scopes = (op as Record<string, unknown>)["x-required-scopes"];
  return Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === "string") : [];
}

/** A matcher of one path template: literal segments compared as written, each `{name}` one non-empty segment. */
function matcher(template: string): (path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const param = /^\{([^}]+)\}$/.exec(part);
      if (param === null) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(param[1]!);
      return "([^/]+)";
    })
    .join("");
  const re = new RegExp(`^${source}$`);
  return (path) => {
    const m = re.exec(path);
    if (m === null) return undefined;
    return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(m[i + 1]!)]));
  };
}
