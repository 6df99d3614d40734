/**
 * The small OpenAPI 3.1 document every doctored pair starts from: one
 * request body (`ThingRequest`, with a discriminated `Shape` and a field for
 * each kind of keyword), parameters,
 * a response (`Thing`, also holding a `Shape` and a recursive `TreeNode`)
 * with a header, and an event stream whose item schema is an open union
 * (`Event`: if known type -> `KnownEvent` oneOf, else `UnknownEvent`), built
 * the way schema/CONVENTIONS.md builds `AgentRunEvent`.
 */
const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });

export const EVENT_TYPES = ["started", "delta"];

export function baseDocument(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "Doctored", version: "1.0.0", "x-protocol-version": "2026-09" },
    paths: {
      "/things": {
        post: {
          operationId: "createThing",
          "x-required-scopes": ["things:write"],
          parameters: [
            { name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 100 } },
            { name: "X-Trace", in: "header", required: false, schema: { type: "string" } },
          ],
          requestBody: { required: true, content: { "application/json": { schema: ref("ThingRequest") } } },
          responses: {
            "201": {
              description: "Created.",
              headers: { "Retry-After": { schema: { type: "integer", minimum: 0 } } },
              content: { "application/json": { schema: ref("Thing") } },
            },
            "400": { description: "Bad request.", content: { "application/json": { schema: ref("ErrorBody") } } },
          },
        },
      },
      "/things/{thingId}/events": {
        parameters: [{ name: "thingId", in: "path", required: true, schema: { type: "string", minLength: 1 } }],
        get: {
          operationId: "streamThing",
          responses: {
            "200": {
              description: "Events.",
              content: { "text/event-stream": { schema: { type: "string" }, "x-item-schema": ref("Event") } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        ThingRequest: {
          type: "object",
          required: ["name"],
          properties: {
            name: { type: "string", minLength: 1, maxLength: 100 },
            count: { type: "integer", minimum: 0, maximum: 10 },
            kind: { type: "string", enum: ["a", "b"] },
            label: { type: ["string", "null"] },
            code: { type: "string", pattern: "^[a-z]+$" },
            note: { type: "string", "x-max-utf8-bytes": 1024 },
            mime: { type: "string", "x-known-values": ["text/plain"] },
            level: {
              oneOf: [
                { type: "string", enum: ["low", "high"] },
                { type: "integer", minimum: 0 },
              ],
            },
            notReserved: { type: "string", not: { enum: ["admin"] } },
            tags: { type: "array", maxItems: 5, items: { type: "string" } },
            shape: ref("Shape"),
            meta: { type: "object", propertyNames: { maxLength: 10 }, additionalProperties: { type: "string" } },
            pairs: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] },
            files: {
              type: "array",
              items: { type: "object", properties: { data: { type: "string" } } },
              "x-max-base64-bytes-total": { max: 1000, path: ["*", "data"] },
            },
            messages: { type: "array", items: { type: "object" }, "x-last-non-system-role": "user" },
            step: { type: "number", multipleOf: 0.5 },
            low: { type: "integer" },
            high: { type: "integer" },
          },
          additionalProperties: true,
        },
        Shape: {
          type: "object",
          oneOf: [ref("Circle"), ref("Square")],
          discriminator: {
            propertyName: "kind",
            mapping: { circle: "#/components/schemas/Circle", square: "#/components/schemas/Square" },
          },
        },
        Circle: {
          type: "object",
          required: ["kind", "radius"],
          properties: { kind: { const: "circle" }, radius: { type: "number", minimum: 0 } },
          additionalProperties: true,
        },
        Square: {
          type: "object",
          required: ["kind", "side"],
          properties: { kind: { const: "square" }, side: { type: "number", minimum: 0 } },
          additionalProperties: true,
        },
        Thing: {
          type: "object",
          required: ["id", "status"],
          properties: {
            id: { type: "string" },
            status: { type: "string", enum: ["active", "ended"] },
            phase: { type: "string", "x-known-values": ["one", "two"] },
            title: { type: "string", maxLength: 200 },
            size: { type: "integer", minimum: 0 },
            label: { type: ["string", "null"] },
            shape: ref("Shape"),
            tree: ref("TreeNode"),
          },
          additionalProperties: true,
        },
        TreeNode: {
          type: "object",
          required: ["value"],
          properties: { value: { type: "string" }, children: { type: "array", items: ref("TreeNode") } },
          additionalProperties: true,
        },
        ErrorBody: {
          type: "object",
          required: ["error"],
          properties: { error: { type: "string", "x-known-values": ["invalid_request"] } },
          additionalProperties: true,
        },
        StartedEvent: {
          type: "object",
          required: ["seq", "type", "data"],
          properties: { seq: { type: "integer", minimum: 0 }, type: { const: "started" }, data: { type: "object" } },
          additionalProperties: true,
        },
        DeltaEvent: {
          type: "object",
          required: ["seq", "type", "data"],
          properties: { seq: { type: "integer", minimum: 0 }, type: { const: "delta" }, data: ref("DeltaData") },
          additionalProperties: true,
        },
        DeltaData: {
          type: "object",
          required: ["text"],
          properties: { text: { type: "string" }, phase: { type: "string", enum: ["draft", "final"] } },
          additionalProperties: true,
        },
        KnownEvent: {
          type: "object",
          oneOf: [ref("StartedEvent"), ref("DeltaEvent")],
          discriminator: {
            propertyName: "type",
            mapping: { started: "#/components/schemas/StartedEvent", delta: "#/components/schemas/DeltaEvent" },
          },
        },
        UnknownEvent: {
          type: "object",
          required: ["seq", "type", "data"],
          properties: {
            seq: { type: "integer", minimum: 0 },
            type: { type: "string", not: { enum: [...EVENT_TYPES] } },
            data: {},
          },
          additionalProperties: true,
        },
        Event: {
          if: { type: "object", required: ["type"], properties: { type: { enum: [...EVENT_TYPES] } } },
          then: ref("KnownEvent"),
          else: ref("UnknownEvent"),
        },
      },
    },
  };
}
