/**
 * `mix=N`: a combination of faults drawn from N, as spec text (so the
 * stream's `X-Mock-Faults` header shows exactly what was drawn). Every
 * combination is one a correct client completes with its defaults: faults
 * that end or refuse a connection apply to the first three connections at
 * most, so later connections get through; the harmless ones (line endings,
 * BOM, chunks, heartbeats) may apply to every connection. `wrong-type` is in
 * none: a client fails the stream on it (WHATWG SSE), so it is tested alone.
 */
import { between, mulberry32, type Draw } from "./seeded.js";

type Pick = (draw: Draw) => string;

const POOL: ReadonlyArray<readonly [name: string, pick: Pick]> = [
  ["drop-after", (d) => `drop-after=${between(d, 0, 2)}-${between(d, 2, 5)}@1-${between(d, 1, 3)}`],
  ["cut-frame", (d) => `cut-frame=${between(d, 0, 4)}@1-${between(d, 1, 2)}`],
  ["cut-bytes", (d) => `cut-bytes=${between(d, 1, 400)}@1`],
  ["end-clean", (d) => `end-clean=${between(d, 0, 4)}@1-${between(d, 1, 2)}`],
  ["stall", (d) => `stall=${between(d, 0, 3)}@1`],
  ["status", (d) => `status=${d() < 0.5 ? 429 : 503},retry-after=0@1`],
  ["replay", (d) => `replay=${between(d, 1, 4)}@2-3`],
  ["ignore-resume", (d) => `ignore-resume=${["both", "header", "query"][between(d, 0, 2)]}@2`],
  ["eol", (d) => `eol=${d() < 0.5 ? "cr" : "crlf"}@*`],
  ["bom", () => "bom@*"],
  ["chunk", (d) => `chunk=${between(d, 1, 7)}@*`],
  ["heartbeat", (d) => `heartbeat=${between(d, 20, 60)}@*`],
  ["delay", (d) => `delay=${between(d, 0, 100)}@1`],
  ["unknown-event", (d) => `unknown-event=${between(d, 0, 6)}`],
  ["malformed-frame", (d) => `malformed-frame=${between(d, 0, 6)}`],
  ["duplicate-call", () => "duplicate-call"],
];

/** The spec text of combination `n`: 2 to 4 different faults and the seed of their ranges. */
export function drawMix(n: number): string {
  const draw = mulberry32(n ^ 0x5bd1e995);
  const count = between(draw, 2, 4);
  const names = new Set<string>();
  const items: string[] = [];
  while (items.length < count) {
    const [name, pick] = POOL[between(draw, 0, POOL.length - 1)]!;
    if (names.has(name)) continue;
    names.add(name);
    items.push(pick(draw));
  }
  return [...items, `seed=${n}`].join(",");
}
