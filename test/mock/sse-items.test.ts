/**
 * How the document mock reads a `text/event-stream` media type
 * (generator/mock/engine/sse-items.ts), case by case: `itemSchema` and
 * `x-item-schema` first; a 3.0/3.1 `schema` that is none, annotations only
 * or a string (text events), event-shaped (an object or a union of
 * objects, properties among id/event/data/retry with data), or
 * payload-shaped (anything else); and when an event's `data` is JSON.
 */
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { describe, expect, it } from "vitest";
import { eventDataOf, sseItemReading } from "../../generator/mock/engine/sse-items.js";

const doc = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  components: {
    schemas: {
      Delta: { type: "object", properties: { type: { const: "delta" }, text: { type: "string" } } },
      Event: {
        type: "object",
        required: ["data"],
        properties: { event: { const: "tick" }, data: { type: "object" }, id: { type: "string" } },
      },
      DataOnly: { type: "object", properties: { data: { $ref: "#/components/schemas/Delta" } } },
    },
  },
} as unknown as OpenAPIObject;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe("the stream conventions", () => {
  it.each([
    [
      "itemSchema",
      { itemSchema: { type: "object", properties: { foo: { type: "string" } } }, schema: ref("Delta") },
      "event",
    ],
    ["x-item-schema", { "x-item-schema": ref("Event") }, "payload"],
    ["no schema", {}, "text"],
    ["annotations only", { schema: { description: "events", "x-foo": 1 } }, "text"],
    ["a string", { schema: { type: "string" } }, "text"],
    ["an event-shaped object by $ref", { schema: ref("Event") }, "event"],
    ["an event-shaped object with data alone", { schema: ref("DataOnly") }, "event"],
    [
      "a union of event-shaped objects",
      {
        schema: {
          oneOf: [ref("Event"), { type: "object", properties: { event: { const: "end" }, data: { type: "string" } } }],
        },
      },
      "event",
    ],
    ["a payload object", { schema: ref("Delta") }, "payload"],
    ["a union with one payload branch", { schema: { anyOf: [ref("Event"), ref("Delta")] } }, "payload"],
    [
      "an object with SSE fields and one more",
      { schema: { type: "object", properties: { data: { type: "object" }, seq: { type: "integer" } } } },
      "payload",
    ],
    ["an array", { schema: { type: "array", items: ref("Delta") } }, "payload"],
  ])("%s: %s", (_name, media, kind) => {
    expect(sseItemReading(doc, media as Record<string, unknown>).kind).toBe(kind);
  });

  it("an event's data is text when typed a string (null aside) without a JSON contentMediaType; JSON otherwise", () => {
    const event = (data: unknown) => ({ type: "object", properties: { data } });
    expect(eventDataOf(doc, event({ type: "string" })).json).toBe(false);
    expect(eventDataOf(doc, event({ type: ["string", "null"] })).json).toBe(false);
    expect(eventDataOf(doc, event({ type: "string", contentMediaType: "text/plain" })).json).toBe(false);
    expect(
      eventDataOf(doc, event({ type: "string", contentMediaType: "application/json", contentSchema: ref("Delta") })),
    ).toEqual({ json: true, schema: ref("Delta") });
    expect(eventDataOf(doc, event({ type: "object" })).json).toBe(true);
    expect(eventDataOf(doc, event({ type: ["array", "string"] })).json).toBe(true);
    expect(eventDataOf(doc, event({})).json).toBe(true);
    expect(eventDataOf(doc, event(ref("Delta"))).json).toBe(true);
  });
});
