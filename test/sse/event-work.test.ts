/**
 * The typed event layer's work per event, counted, never timed (timing
 * lives in bench/client.ts, decode rows): recording each delivered event's
 * frame shape used to insert it into a WeakMap, about 1.5 µs an event
 * (mostly the garbage collector's ephemeron work), a third of the decode
 * path. The shape is now a private field stamped on the event: no weak
 * collection grows per event, and the event still reads exactly as its
 * parsed JSON (keys, symbols, prototype, clone).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decodeEventBatches, decodeEventMessage } from "../../generated/events.js";
import { frameShapeOf } from "../../runtime/events/index.js";
import { toBytes } from "./helpers.js";

const weakInserts = { count: 0 };
const originals = { mapSet: WeakMap.prototype.set, setAdd: WeakSet.prototype.add };

beforeEach(() => {
  weakInserts.count = 0;
  const { mapSet, setAdd } = originals;
  WeakMap.prototype.set = function (this: WeakMap<WeakKey, unknown>, key: WeakKey, value: unknown) {
    weakInserts.count++;
    return mapSet.call(this, key, value);
  };
  WeakSet.prototype.add = function (this: WeakSet<WeakKey>, value: WeakKey) {
    weakInserts.count++;
    return setAdd.call(this, value);
  };
});

afterEach(() => {
  WeakMap.prototype.set = originals.mapSet;
  WeakSet.prototype.add = originals.setAdd;
});

/** `n` assistant_delta frames, every other one flattened (to record both shapes). */
const frames = (n: number): string =>
  Array.from({ length: n }, (_, i) => {
    const seq = i + 1;
    const data =
      seq % 2
        ? { seq, type: "assistant_delta", data: { text: `t${seq} é` } }
        : { seq, type: "assistant_delta", text: `t${seq}` };
    return `id: ${seq}\nevent: assistant_delta\ndata: ${JSON.stringify(data)}\n\n`;
  }).join("");

function source(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at < bytes.length) c.enqueue(bytes.slice(at, (at += size)));
      else c.close();
    },
  });
}

/** The events of one stream of `n` frames (in 4 KiB chunks), and the weak-collection inserts while decoding them. */
async function decode(n: number): Promise<{ events: object[]; inserts: number }> {
  weakInserts.count = 0;
  const events: object[] = [];
  for await (const batch of decodeEventBatches(source(toBytes(frames(n)), 4096))) events.push(...(batch as object[]));
  return { events, inserts: weakInserts.count };
}

describe("per-event work of the typed event layer", () => {
  it("decoding and validating 500 events inserts into weak collections no more often than decoding 2 (per stream, not per event); each event still records its shape", async () => {
    const few = await decode(2);
    const many = await decode(500);
    expect(many.events).toHaveLength(500);
    expect(many.inserts).toBe(few.inserts);
    expect(many.events.map((e) => frameShapeOf(e))).toEqual(many.events.map((_, i) => (i % 2 ? "flat" : "envelope")));
  });

  it("the recorded shape is invisible on the event: own keys, symbols and prototype as parsed; a clone or a copy carries none", () => {
    const data = JSON.stringify({ seq: 3, type: "assistant_delta", data: { text: "Hi" } });
    const event = decodeEventMessage({ event: "assistant_delta", data, id: "3" }) as object;
    expect(frameShapeOf(event)).toBe("envelope");
    expect(event).toStrictEqual(JSON.parse(data));
    expect(Reflect.ownKeys(event)).toEqual(["seq", "type", "data"]);
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(JSON.stringify(event)).toBe(data);
    expect(frameShapeOf(structuredClone(event))).toBeUndefined();
    expect(frameShapeOf({ ...event })).toBeUndefined();
    // Not an object: nothing recorded, nothing thrown.
    expect(frameShapeOf(5 as unknown as object)).toBeUndefined();
  });
});
