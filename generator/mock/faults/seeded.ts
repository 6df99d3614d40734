/**
 * The fault layer's only source of chance: a small deterministic generator
 * (mulberry32), seeded from the spec's `seed`, the connection's number and
 * the fault's place in the spec, so a failing run repeats exactly, whatever
 * order connections arrive in or how many runs share the server.
 */

/** A generator of numbers in [0, 1). */
export type Draw = () => number;

export function mulberry32(seed: number): Draw {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The generator of one fault (its `index` in the spec) on one connection (`connection`, 1-based; 0 for the run's own faults). */
export function drawFor(seed: number, connection: number, index: number): Draw {
  // Spread the three numbers over 32 bits (odd multipliers of the golden ratio family), so neighbours differ.
  const mixed = (seed ^ Math.imul(connection + 1, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  return mulberry32(mixed);
}

/** A whole number from `min` to `max`, inclusive. */
export function between(draw: Draw, min: number, max: number): number {
  return min + Math.floor(draw() * (max - min + 1));
}
