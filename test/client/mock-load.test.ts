/**
 * The load bench at a small scale (bench/mock-load.ts): 20 concurrent runs
 * x 100 events through one `mantyx-wire mock` child process, every other
 * run faulted; every event of every run delivered once, in order, ending
 * with its terminal event. (The full 200 x 1,000 is `npm run bench -- --only mock-load`.)
 */
import { describe, expect, it } from "vitest";
import { runMockLoad } from "../../bench/mock-load.js";

describe("the mock under load", () => {
  it("20 concurrent runs x 100 events, half of them faulted: exactly once everywhere", async () => {
    const result = await runMockLoad({ runs: 20, events: 100, seed: 3 });
    expect(result.failures).toEqual([]);
    // Each run: 100 deltas, the message and the result, plus what a stored fault added.
    expect(result.delivered).toBeGreaterThanOrEqual(20 * 102);
    // The faults were met: the faulted runs reconnected.
    expect(result.connections).toBeGreaterThan(20 + 10);
    expect(result.serverPeakRssBytes).toBeGreaterThan(0);
    expect(result.clientPeakRssBytes).toBeGreaterThan(0);
  }, 120_000);
});
