/**
 * `mantyx-wire mock --schema <document>`: a mock of any OpenAPI 3.x
 * document on the engine (./http.ts). Every operation answers from its
 * examples or its schemas, as Stoplight Prism does (statuses, examples and
 * media types chosen as ./choose.ts says), its query and JSON body checked
 * first (`400 invalid_request` with every issue); a `text/event-stream`
 * answer streams generated events (./stream-events.ts) through the fault
 * layer (../faults/): the `--fault` spec for every stream, and the
 * `X-Mock-Fault` header or `?mockFault=` query of the request. A request
 * with `Last-Event-ID` continues the newest stream of the same request
 * (method, path, query, body): it is that stream's next connection (what
 * `@2` selects), resumed after the event of that id. A request without the
 * credentials the operation's security requirements ask for is answered
 * `401` before anything else (./security.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
} from "openapi3-ts/oas31";
import { isPlainObject } from "../../load/json-pointer.js";
import { deref, isJsonMediaType, operationsOf } from "../../emit/operations.js";
import {
  connectionSpecOf,
  faultTextOfRequest,
  FAULT_QUERY,
  isFaultSpecError,
  NO_FAULTS,
  parseFaultSpec,
  planConnection,
  recordEnd,
  resumePoint,
  serveStream,
  type ConnectionEnd,
  type FaultSpec,
} from "../faults/index.js";
import { RingLog } from "../ring-log.js";
import { routesOf, type BodyIssue, type Route } from "../routes.js";
import {
  chooseMedia,
  chooseStatus,
  preferenceOf,
  SSE,
  statusesForExample,
  type ChosenStatus,
  type Preference,
} from "./choose.js";
import { startEngine, type Engine, type HandlerContext, type RecordedRequest, type RequestLogLine } from "./http.js";
import { sseItemReading, unionBranches } from "./sse-items.js";
import { streamEntries, type StreamEntry } from "./stream-events.js";
import { missingCredentials } from "./security.js";
import { exampleNames, generate, mediaExample, resolveRef } from "./values.js";

export interface DocumentMockOptions {
  /** The document, loaded (generator/load: bundled, internal `$ref`s only). */
  readonly document: OpenAPIObject;
  /** TCP port on 127.0.0.1. Default 0: any free port. */
  readonly port?: number;
  readonly maxBodyBytes?: number;
  readonly recordLimit?: number;
  /** A fault spec for every stream (the `--fault` language), e.g. `drop-after=2` or `eol=crlf@*`. Throws a FaultSpecError when invalid. */
  readonly faults?: string;
  /** `retry:` sent at the start of each stream, in ms. Default: none. */
  readonly retryMs?: number;
  readonly onRequest?: (line: RequestLogLine) => void;
}

/** One stream connection the mock served. */
export interface DocumentStreamConnection {
  readonly operationId: string;
  readonly path: string;
  /** Its number among the connections of its stream, 1-based (what `@` in a fault spec selects). */
  readonly connection: number;
  readonly lastEventId: string | undefined;
  /** The faults it met, ranges drawn (its `X-Mock-Faults` header); `""`: none. */
  readonly faults: string;
  end: ConnectionEnd | undefined;
  frames: number;
  writes: number;
}

export interface DocumentMock {
  readonly url: string;
  /** `METHOD /path (operationId)` of every operation served. */
  readonly operations: readonly string[];
  /** The newest requests, in arrival order. */
  readonly requests: RecordedRequest[];
  /** The newest stream connections, in arrival order. */
  readonly streams: DocumentStreamConnection[];
  /** Fault specs for the next stream connections (any operation), one per connection, in order (connection faults only). */
  readonly faults: string[];
  close(): Promise<void>;
}

/** One stream: its frames and the faults of its first request, kept for its later connections. */
interface StreamState {
  readonly entries: StreamEntry[];
  readonly layers: readonly FaultSpec[];
  /** The fault text of the first request (a reconnect repeating it word for word adds nothing). */
  readonly given: string | undefined;
  connections: number;
}

const MAX_STREAMS = 1000;
const HINT =
  "Fault specs: name[=value][@connections], separated by commas (the fault table in the mock's documentation).";

/** The document mock's answers, as a handler for the engine: also what the MANTYX mock answers an operation it has no scenario for with. */
export interface DocumentAnswers {
  readonly handle: (ctx: HandlerContext) => void;
  /** The newest stream connections, in arrival order. */
  readonly streams: RingLog<DocumentStreamConnection>;
  /** Fault specs for the next stream connections, one per connection. */
  readonly queue: string[];
}

export function documentAnswers(
  doc: OpenAPIObject,
  routes: readonly Route[],
  engine: () => Engine,
  options: {
    readonly faults?: string | undefined;
    readonly recordLimit?: number | undefined;
    readonly retryMs?: number | undefined;
    readonly nextId: () => number;
  },
): DocumentAnswers {
  const entries = operationsOf(doc);
  const byRoute = new Map(routes.map((r, i) => [r, entries[i]!]));
  const serverFaults = parseFaultSpec(options.faults ?? "", "--fault", "run");
  const queue: string[] = [];
  const streamLog = new RingLog<DocumentStreamConnection>(options.recordLimit ?? 1000);
  const states = new Map<string, StreamState>();

  function handle(ctx: HandlerContext): void {
    const entry = byRoute.get(ctx.route)!;
    const { req, res, url } = ctx;
    const missing = missingParameters(doc, entry.item.parameters, entry.op.parameters, url, req);
    if (missing.length > 0) {
      engine().invalid(res, missing, "request");
      return;
    }
    const preference = preferenceOf(req);
    if (typeof preference === "string") {
      engine().send(res, 400, { error: "invalid_request", message: preference });
      return;
    }
    const answer = answerOf(entry.op, preference);
    if (typeof answer === "string") {
      engine().send(res, 400, { error: "mock_no_such_answer", message: `${ctx.route.operationId}: ${answer}` });
      return;
    }
    const { status, response } = answer;
    const headers = responseHeaders(response);
    const content = (response.content ?? {}) as Record<string, Record<string, unknown>>;
    const noBody = status.code === 204 || status.code === 304 || ctx.method === "HEAD";
    const media = noBody ? undefined : chooseMedia(doc, entry.op, content, req, ctx.body);
    if (media === undefined) {
      engine().send(res, status.code, undefined, headers);
      return;
    }
    const mediaObject = content[media]!;
    let example: { value: unknown } | undefined;
    if (!preference.dynamic) {
      const found = mediaExample(doc, mediaObject, answer.example);
      if (found.found) example = { value: found.value };
    }
    if (SSE.test(media)) {
      stream(ctx.req, res, url, ctx.route.operationId, ctx.body, status.code, mediaObject, example, headers);
      return;
    }
    const value =
      example !== undefined
        ? example.value
        : generate(doc, mediaObject["schema"] ?? (isJsonMediaType(media) ? true : { type: "string" }));
    if (isJsonMediaType(media)) engine().sendRaw(res, status.code, media, JSON.stringify(value), headers);
    else if (/^application\/(jsonl|x-ndjson|x-jsonlines|json-lines)/i.test(media))
      engine().sendRaw(res, status.code, media, jsonLines(mediaObject, example), headers);
    else engine().sendRaw(res, status.code, media, typeof value === "string" ? value : JSON.stringify(value), headers);
  }

  /** The status, its response and the example name (checked), or a message. */
  function answerOf(
    op: OperationObject,
    preference: Preference,
  ): { status: ChosenStatus; response: ResponseObject; example?: string } | string {
    const chosen = chooseStatus(op, preference.code);
    if (typeof chosen === "string") return chosen;
    const responseAt = (s: ChosenStatus): ResponseObject =>
      s.key === ""
        ? { description: "" }
        : deref<ResponseObject>(doc, (op.responses as Record<string, ResponseObject | ReferenceObject>)[s.key]!);
    if (preference.example === undefined) return { status: chosen, response: responseAt(chosen) };
    const names = new Set<string>();
    for (const s of statusesForExample(op, chosen, preference.code !== undefined)) {
      const response = responseAt(s);
      for (const media of Object.values((response.content ?? {}) as Record<string, Record<string, unknown>>)) {
        const here = exampleNames(media);
        if (here.includes(preference.example)) return { status: s, response, example: preference.example };
        for (const n of here) names.add(n);
      }
    }
    return `no example named ${JSON.stringify(preference.example)}${preference.code === undefined ? "" : ` in its ${preference.code} answer`} (named: ${[...names].join(", ") || "none"})`;
  }

  function responseHeaders(response: ResponseObject): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, raw] of Object.entries(response.headers ?? {})) {
      if (/^(content-type|content-length|transfer-encoding|connection)$/i.test(name)) continue;
      const header = resolveRef(doc, raw);
      if (!isPlainObject(header)) continue;
      const found = mediaExample(doc, header);
      const value = found.found
        ? found.value
        : header["schema"] !== undefined
          ? generate(doc, header["schema"])
          : undefined;
      if (value === undefined || value === null) continue;
      out[name.toLowerCase()] = Array.isArray(value)
        ? value.join(",")
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value);
    }
    return out;
  }

  function jsonLines(media: Record<string, unknown>, example: { value: unknown } | undefined): string {
    if (example !== undefined)
      return typeof example.value === "string"
        ? example.value
        : (Array.isArray(example.value) ? example.value : [example.value])
            .map((v) => `${JSON.stringify(v)}\n`)
            .join("");
    const item = media["itemSchema"] ?? media["x-item-schema"];
    const branches = item === undefined ? [true] : unionBranches(doc, item);
    const values =
      branches.length === 1 ? [0, 1, 2].map(() => generate(doc, branches[0])) : branches.map((b) => generate(doc, b));
    return values.map((v) => `${JSON.stringify(v)}\n`).join("");
  }

  function stream(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    operationId: string,
    body: unknown,
    status: number,
    media: Record<string, unknown>,
    example: { value: unknown } | undefined,
    headers: Record<string, string>,
  ): void {
    const lastEventId = typeof req.headers["last-event-id"] === "string" ? req.headers["last-event-id"] : undefined;
    const query = new URLSearchParams(url.searchParams);
    query.delete(FAULT_QUERY);
    const key = `${req.method} ${url.pathname}?${query} ${JSON.stringify(body ?? null)}`;
    const given = faultTextOfRequest(req, url);
    let state = lastEventId === undefined ? undefined : states.get(key);
    let own: FaultSpec = NO_FAULTS;
    try {
      if (state === undefined) {
        const first = given === undefined ? NO_FAULTS : parseFaultSpec(given.text, given.source, "run");
        const layers = [serverFaults, first];
        state = {
          entries: streamEntries({ doc, media, reading: sseItemReading(doc, media), example }, layers),
          layers,
          given: given?.text,
          connections: 0,
        };
        states.delete(key);
        states.set(key, state);
        for (const old of states.keys()) {
          if (states.size <= MAX_STREAMS) break;
          states.delete(old);
        }
      }
      // The first request's spec is the stream's (a layer above); a reconnect's own spec is its connection's, unless it repeats the first.
      own = connectionSpecOf(req, url, state.given, queue.shift(), "DocumentMock.faults");
    } catch (error) {
      if (!isFaultSpecError(error)) throw error;
      engine().send(res, 400, { error: "invalid_request", message: error.message, hint: HINT });
      return;
    }
    const connection = ++state.connections;
    const plan = planConnection(
      [...state.layers.map((spec) => ({ spec, thisConnection: false })), { spec: own, thisConnection: true }],
      connection,
    );
    const record: DocumentStreamConnection = {
      operationId,
      path: url.pathname,
      connection,
      lastEventId,
      faults: plan.text,
      end: undefined,
      frames: 0,
      writes: 0,
    };
    streamLog.push(record);
    const entries = state.entries;
    const last = entries[entries.length - 1];
    void serveStream<StreamEntry>(
      {
        req,
        res,
        run: { events: entries, done: true, onChange: () => () => undefined },
        plan,
        frame: (e) => e.text,
        isTerminal: (e) => e === last,
        retryMs: options.retryMs,
        headers: { ...headers, "x-request-id": `req_${options.nextId()}` },
        status,
        refuse: (code, answer, extra) => engine().send(res, code, answer, extra),
        rateLimitedBody: { error: "rate_limited", message: "mock fault status=429" },
        onOpen: () => engine().finishRecord(res, status),
        onEnd: recordEnd(record),
      },
      resumePoint(req, url, plan),
    ).catch(() => res.destroy());
  }

  return { handle, streams: streamLog, queue };
}

export async function startDocumentMock(options: DocumentMockOptions): Promise<DocumentMock> {
  const routes = routesOf(options.document);
  const operations = operationsOf(options.document);
  let counter = 0;
  let started: Engine | undefined;
  const answers = documentAnswers(options.document, routes, () => started!, {
    faults: options.faults,
    recordLimit: options.recordLimit,
    retryMs: options.retryMs,
    nextId: () => ++counter,
  });
  const engine = await startEngine({
    name: "mantyx-wire mock",
    routes,
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.recordLimit === undefined ? {} : { recordLimit: options.recordLimit }),
    ...(options.onRequest === undefined ? {} : { onRequest: options.onRequest }),
    nextId: () => ++counter,
    // Credentials first, before the body is read (./security.ts): a missing one is a 401, whatever else is wrong.
    afterRouting: ({ req, res, route, url }) => {
      const missing = missingCredentials(options.document, operations[routes.indexOf(route)]!.op, req, url);
      if (missing === undefined) return false;
      started!.refuse(
        req,
        res,
        401,
        { error: "unauthorized", message: `${route.operationId}: ${missing.message}` },
        missing.challenges.length > 0 ? { "www-authenticate": missing.challenges.join(", ") } : {},
      );
      return true;
    },
    handle: answers.handle,
  });
  started = engine;
  return {
    url: engine.url,
    operations: routes.map(
      (r) => `${r.method} ${r.template}${r.operationId.includes(" ") ? "" : ` (${r.operationId})`}`,
    ),
    get requests() {
      return engine.requests.toArray();
    },
    get streams() {
      return answers.streams.toArray();
    },
    faults: answers.queue,
    close: () => engine.close(),
  };
}

/** The required query and header parameters the request lacks, as issues (`/query/<name>`, `/header/<name>`). */
function missingParameters(
  doc: OpenAPIObject,
  itemParams: unknown,
  opParams: unknown,
  url: URL,
  req: IncomingMessage,
): BodyIssue[] {
  const byName = new Map<string, ParameterObject>();
  for (const p of [...((itemParams as unknown[]) ?? []), ...((opParams as unknown[]) ?? [])]) {
    const param = resolveRef(doc, p);
    if (isPlainObject(param))
      byName.set(`${String(param["in"])}:${String(param["name"])}`, param as unknown as ParameterObject);
  }
  const out: BodyIssue[] = [];
  for (const p of byName.values()) {
    if (p.required !== true) continue;
    if (p.in === "query" && !url.searchParams.has(p.name))
      out.push({ path: `/query/${p.name}`, rule: "required", message: `must have the query parameter ${p.name}` });
    if (p.in === "header" && req.headers[p.name.toLowerCase()] === undefined)
      out.push({ path: `/header/${p.name}`, rule: "required", message: `must have the header ${p.name}` });
  }
  return out;
}
