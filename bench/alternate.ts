/**
 * Timing contenders against each other in one process, fairly on a shared
 * machine: every contender is warmed first (the JIT settles after a few
 * passes), then they run in rounds whose order rotates by one each round,
 * so that noise from other processes hits every contender alike.
 */

/** One timed run: wall-clock time and this process's CPU time (user + system), in milliseconds. */
export interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/**
 * Runs each of `contenders` `runs` times after `warmups` untimed runs of
 * each (two unless said), alternating as above; returns each contender's
 * samples, in the order of `contenders`.
 */
export async function alternate(
  contenders: ReadonlyArray<() => Promise<unknown>>,
  runs: number,
  warmups = 2,
): Promise<Sample[][]> {
  const samples: Sample[][] = contenders.map(() => []);
  for (let i = 0; i < warmups; i++) for (const run of contenders) await run();
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < contenders.length; k++) {
      const j = (i + k) % contenders.length;
      const t = performance.now();
      const u = process.cpuUsage();
      await contenders[j]!();
      const cpu = process.cpuUsage(u);
      samples[j]!.push({ wallMs: performance.now() - t, cpuMs: (cpu.user + cpu.system) / 1000 });
    }
  }
  return samples;
}

/** The middle of `xs` (the upper one of the two middles when their count is even). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Each contender's median rate: `amount` (e.g. MB) per second of `clock` time. */
export function medianRates(samples: readonly Sample[][], amount: number, clock: keyof Sample): number[] {
  return samples.map((timed) => median(timed.map((s) => amount / (s[clock] / 1000))));
}
