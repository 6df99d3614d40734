/** Internal: bounded exponential back-off with jitter, an abortable sleep, and linked abort controllers. */

export interface BackoffOptions {
  /** First delay in ms (default 500). A stream's `retry:` field replaces it. */
  initialDelayMs?: number | undefined;
  /** Upper bound of any delay in ms (default 10 000). */
  maxDelayMs?: number | undefined;
}

/**
 * Delay before attempt `attempt` (1 = first retry): `base * 2^(attempt-1)`,
 * capped at `maxDelayMs`, then "equal jitter" (a random point in the upper
 * half) so many clients dropped together do not come back together. A
 * server's `retry:` (`serverMs`) is the base and a minimum, as in the SSE
 * reconnection rules: jitter never goes below it (the cap still bounds it).
 * `atLeastMs` (a `Retry-After`) is honoured even above the cap.
 */
export function backoff(attempt: number, options: BackoffOptions | undefined, serverMs?: number, atLeastMs = 0): number {
  const max = options?.maxDelayMs ?? 1e4;
  const exp = Math.min(max, (serverMs ?? options?.initialDelayMs ?? 500) * 2 ** (attempt - 1));
  return Math.max(exp / 2 + (Math.random() * exp) / 2, Math.min(serverMs ?? 0, max), atLeastMs);
}

/**
 * Resolves after `ms`, or rejects with the signal's reason when it aborts
 * first. A timer holds at most 2^31 - 1 ms (about 24.8 days; longer ones
 * would fire at once), so longer waits are capped there.
 */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const stop = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, Math.min(ms, 2 ** 31 - 1));
    if (signal?.aborted) stop();
    signal?.addEventListener("abort", stop);
  });

/** An AbortController that also aborts when `parent` does; aborting it unhooks it from `parent`. */
export function linked(parent: AbortSignal | undefined): AbortController {
  const c = new AbortController();
  const follow = (): void => c.abort(parent!.reason);
  if (parent?.aborted) follow();
  parent?.addEventListener("abort", follow, { signal: c.signal });
  return c;
}
