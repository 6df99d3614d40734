/**
 * The route table: operations matched by method and path (path parameters
 * matched by position, so a renamed `{id}` is the same route), then what
 * the client sends (parameters, request body: the `request` side) and what
 * it reads (responses, their headers and bodies, and the event stream's item
 * schema: `x-item-schema` in OpenAPI 3.1, `itemSchema` in 3.2: the
 * `response` side).
 */
import { formatPointer, getAtPointer } from "../load/json-pointer.js";
import { pathItemsOf } from "../load/path-items.js";
import { child, isPlainObject, parsePointer, refTarget, type DiffContext, type SchemaNode } from "./context.js";
import { setDifference, stringList } from "./json-values.js";

/** The fixed methods of a Path Item (`query` is OpenAPI 3.2's); 3.2's `additionalOperations` holds any other. */
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"] as const;

/** The keys the event stream's item schema goes by: the 3.1 vendor form and OpenAPI 3.2's own. */
const ITEM_SCHEMA_KEYS = ["x-item-schema", "itemSchema"] as const;

interface Located {
  readonly value: Readonly<Record<string, unknown>>;
  readonly pointer: string;
}

interface Operation extends Located {
  readonly method: string;
  readonly path: string;
  readonly pathItem: Located;
  /** Method + path with parameter names blanked: what identifies the route on the wire. */
  readonly route: string;
  readonly name: string;
}

function operations(document: unknown): Map<string, Operation> {
  const found = new Map<string, Operation>();
  for (const { path, item, pointerOf } of pathItemsOf(document)) {
    const pathItem = { value: item, pointer: formatPointer(pointerOf("parameters").slice(0, -1)) };
    const candidates: Array<[string, unknown, string]> = METHODS.map((method) => [
      method,
      item[method],
      formatPointer(pointerOf(method)),
    ]);
    for (const [method, operation] of entries(item.additionalOperations))
      candidates.push([method, operation, child(formatPointer(pointerOf("additionalOperations")), method)]);
    for (const [method, operation, pointer] of candidates) {
      if (!isPlainObject(operation)) continue;
      const route = `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, "{}")}`;
      const name =
        typeof operation.operationId === "string" ? operation.operationId : `${method.toUpperCase()} ${path}`;
      found.set(route, { value: operation, pointer, method, path, pathItem, route, name });
    }
  }
  return found;
}

/** Follow a `$ref` to a component (parameter, request body, response, header). */
function resolve(document: unknown, located: Located): Located {
  let current = located;
  for (let hops = 0; hops < 16 && typeof current.value.$ref === "string"; hops++) {
    const target = refTarget(current.value);
    if (target === undefined) break;
    const value = getAtPointer(document, parsePointer(target));
    if (!isPlainObject(value)) break;
    current = { value, pointer: target };
  }
  return current;
}

function entries(value: unknown): Array<[string, Readonly<Record<string, unknown>>]> {
  return isPlainObject(value)
    ? Object.entries(value).filter((entry): entry is [string, Record<string, unknown>] => isPlainObject(entry[1]))
    : [];
}

function schemaOf(located: Located, key = "schema"): SchemaNode {
  return { schema: located.value[key] ?? true, pointer: child(located.pointer, key) };
}

/** Parameters by `in` + name (header names are case-insensitive; path parameters by their position in the path). */
function parameters(document: unknown, operation: Operation): Map<string, Located & { name: string }> {
  const byKey = new Map<string, Located & { name: string }>();
  const pathNames = [...operation.path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]);
  const collect = (owner: Located): void => {
    const list = owner.value.parameters;
    if (!Array.isArray(list)) return;
    list.forEach((raw, index) => {
      if (!isPlainObject(raw)) return;
      const parameter = resolve(document, { value: raw, pointer: child(owner.pointer, "parameters", String(index)) });
      const name = String(parameter.value.name);
      const place = String(parameter.value.in);
      const key =
        place === "path"
          ? `path #${pathNames.indexOf(name)}`
          : place === "header"
            ? `header ${name.toLowerCase()}`
            : `${place} ${name}`;
      byKey.set(key, { ...parameter, name });
    });
  };
  collect(operation.pathItem);
  collect(operation); // an operation's parameter overrides the path item's
  return byKey;
}

/** A parameter's or header's schema: `schema`, or the one media type of `content`. */
function valueSchema(located: Located): SchemaNode {
  if (located.value.schema !== undefined || !isPlainObject(located.value.content)) return schemaOf(located);
  const [media] = entries(located.value.content);
  return media === undefined
    ? schemaOf(located)
    : schemaOf({ value: media[1], pointer: child(located.pointer, "content", media[0]) });
}

function compareParameters(context: DiffContext, old: Operation, next: Operation): void {
  const before = parameters(context.oldDocument, old);
  const after = parameters(context.newDocument, next);
  const request = context.with({ side: "request" });
  for (const [key, parameter] of before) {
    const counterpart = after.get(key);
    if (counterpart === undefined) {
      // The server no longer reads it; a client that sends it is not refused for it.
      request.report("parameter-removed", "info", parameter.pointer, { old: parameter.name });
      continue;
    }
    const wasRequired = parameter.value.required === true;
    const isRequired = counterpart.value.required === true;
    if (!wasRequired && isRequired)
      request.report("parameter-became-required", "narrow", child(counterpart.pointer, "required"), {
        old: false,
        new: true,
      });
    if (wasRequired && !isRequired)
      request.report("parameter-became-optional", "widen", child(counterpart.pointer, "required"), {
        old: true,
        new: false,
      });
    if (parameter.name !== counterpart.name && parameter.value.in === "path")
      request.report("path-parameter-renamed", "info", counterpart.pointer, {
        old: parameter.name,
        new: counterpart.name,
      });
    const parameterContext = request.with({ via: `${next.name} parameter ${counterpart.name}` });
    parameterContext.compare(parameterContext, valueSchema(parameter), valueSchema(counterpart));
  }
  for (const [key, parameter] of after) {
    if (before.has(key)) continue;
    const required = parameter.value.required === true;
    request.report(
      required ? "required-parameter-added" : "parameter-added",
      required ? "narrow" : "additive",
      parameter.pointer,
      { new: parameter.name },
    );
  }
}

/** Media types of a request body or a response; `compareMedia` compares one pair. */
function compareContent(
  context: DiffContext,
  old: Located,
  next: Located,
  compareMedia: (context: DiffContext, old: Located, next: Located, type: string) => void,
): void {
  const before = new Map(entries(old.value.content));
  const after = new Map(entries(next.value.content));
  for (const [type, media] of before) {
    const counterpart = after.get(type);
    const oldMedia = { value: media, pointer: child(old.pointer, "content", type) };
    if (counterpart === undefined)
      context.report("media-type-removed", context.side === "request" ? "narrow" : "removed", oldMedia.pointer, {
        old: type,
      });
    else compareMedia(context, oldMedia, { value: counterpart, pointer: child(next.pointer, "content", type) }, type);
  }
  for (const type of after.keys()) {
    if (!before.has(type))
      context.report("media-type-added", "additive", child(next.pointer, "content", type), { new: type });
  }
}

function compareRequestBody(context: DiffContext, old: Operation, next: Operation): void {
  const request = context.with({ side: "request", via: `${next.name} request body` });
  const before = isPlainObject(old.value.requestBody)
    ? resolve(context.oldDocument, { value: old.value.requestBody, pointer: child(old.pointer, "requestBody") })
    : undefined;
  const after = isPlainObject(next.value.requestBody)
    ? resolve(context.newDocument, { value: next.value.requestBody, pointer: child(next.pointer, "requestBody") })
    : undefined;
  if (before === undefined && after === undefined) return;
  if (before === undefined) {
    const required = after!.value.required === true;
    request.report("request-body-added", required ? "narrow" : "additive", after!.pointer);
    return;
  }
  if (after === undefined) {
    request.report("request-body-removed", "info", before.pointer);
    return;
  }
  const wasRequired = before.value.required === true;
  const isRequired = after.value.required === true;
  if (!wasRequired && isRequired)
    request.report("request-body-became-required", "narrow", child(after.pointer, "required"), {
      old: false,
      new: true,
    });
  if (wasRequired && !isRequired)
    request.report("request-body-became-optional", "widen", child(after.pointer, "required"), {
      old: true,
      new: false,
    });
  compareContent(request, before, after, (context, oldMedia, newMedia) =>
    context.compare(context, schemaOf(oldMedia), schemaOf(newMedia)),
  );
}

function itemSchemaOf(media: Located): SchemaNode | undefined {
  const key = ITEM_SCHEMA_KEYS.find((candidate) => media.value[candidate] !== undefined);
  return key === undefined ? undefined : schemaOf(media, key);
}

/** A response body, and the item schema of a stream (`stream` is the same walk named after the event stream). */
function compareResponseMedia(context: DiffContext, stream: DiffContext, old: Located, next: Located): void {
  context.compare(context, schemaOf(old), schemaOf(next));
  const before = itemSchemaOf(old);
  const after = itemSchemaOf(next);
  if (before !== undefined && after !== undefined) stream.compare(stream, before, after);
  else if (before !== undefined) stream.report("item-schema-removed", "removed", before.pointer);
  else if (after !== undefined) stream.report("item-schema-added", "additive", after.pointer);
}

function compareHeaders(context: DiffContext, old: Located, next: Located): void {
  const byName = (response: Located): Map<string, Located> =>
    new Map(
      entries(response.value.headers).map(([name, header]) => [
        name.toLowerCase(),
        { value: header, pointer: child(response.pointer, "headers", name) },
      ]),
    );
  const before = byName(old);
  const after = byName(next);
  for (const [name, header] of before) {
    const counterpart = after.get(name);
    if (counterpart === undefined) {
      context.report("header-removed", "removed", header.pointer, { old: name });
      continue;
    }
    const oldHeader = resolve(context.oldDocument, header);
    const newHeader = resolve(context.newDocument, counterpart);
    if (oldHeader.value.required === true && newHeader.value.required !== true)
      context.report("header-became-optional", "widen", child(newHeader.pointer, "required"), {
        old: true,
        new: false,
      });
    const headerContext = context.with({ via: `${context.via} header ${name}` });
    headerContext.compare(headerContext, valueSchema(oldHeader), valueSchema(newHeader));
  }
  for (const [name, header] of after)
    if (!before.has(name)) context.report("header-added", "additive", header.pointer, { new: name });
}

function compareResponses(context: DiffContext, old: Operation, next: Operation): void {
  const before = new Map(entries(old.value.responses));
  const after = new Map(entries(next.value.responses));
  for (const [status, raw] of before) {
    const counterpart = after.get(status);
    const oldPointer = child(old.pointer, "responses", status);
    const response = context.with({ side: "response", via: `${next.name} response ${status}` });
    if (counterpart === undefined) {
      // The server no longer answers it; a client that handles it is not hurt.
      response.report("response-removed", "info", oldPointer, { old: status });
      continue;
    }
    const oldResponse = resolve(context.oldDocument, { value: raw, pointer: oldPointer });
    const newResponse = resolve(context.newDocument, {
      value: counterpart,
      pointer: child(next.pointer, "responses", status),
    });
    compareHeaders(response, oldResponse, newResponse);
    compareContent(response, oldResponse, newResponse, (media, oldMedia, newMedia, type) => {
      const stream = response.with({
        via: type === "text/event-stream" ? `${next.name} event stream` : `${next.name} ${type} items`,
      });
      compareResponseMedia(media, stream, oldMedia, newMedia);
    });
  }
  for (const status of after.keys()) {
    if (!before.has(status))
      context
        .with({ side: "response", via: `${next.name} response ${status}` })
        .report("response-added", "additive", child(next.pointer, "responses", status), { new: status });
  }
}

function compareScopes(context: DiffContext, old: Operation, next: Operation): void {
  const before = stringList(old.value["x-required-scopes"]) ?? [];
  const after = stringList(next.value["x-required-scopes"]) ?? [];
  const { added, removed } = setDifference(before, after);
  const pointer = child(next.pointer, "x-required-scopes");
  // An OAuth token issued with the old scopes is refused when a scope is added.
  if (added.length > 0) context.report("scope-added", "narrow", pointer, { old: before, new: after });
  if (removed.length > 0) context.report("scope-removed", "widen", pointer, { old: before, new: after });
}

export function compareOperations(context: DiffContext): void {
  const before = operations(context.oldDocument);
  const after = operations(context.newDocument);
  for (const [route, old] of before) {
    const next = after.get(route);
    const operationContext = context.with({ side: "operation", via: next?.name ?? old.name });
    if (next === undefined) {
      operationContext.report("operation-removed", "removed", old.pointer, { old: route });
      continue;
    }
    if (old.name !== next.name)
      operationContext.report("operation-id-renamed", "info", child(next.pointer, "operationId"), {
        old: old.name,
        new: next.name,
      });
    if (old.value.deprecated !== true && next.value.deprecated === true)
      operationContext.report("operation-deprecated", "info", child(next.pointer, "deprecated"), { new: true });
    compareScopes(operationContext, old, next);
    compareParameters(operationContext, old, next);
    compareRequestBody(operationContext, old, next);
    compareResponses(operationContext, old, next);
  }
  for (const [route, next] of after) {
    if (!before.has(route))
      context
        .with({ side: "operation", via: next.name })
        .report("operation-added", "additive", next.pointer, { new: route });
  }
}
