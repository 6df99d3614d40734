/** Internal: bounded exponential back-off with jitter, and an abortable sleep. */

export interface BackoffOptions {
  /** First delay in ms (default 500). A stream's `retry:` field replaces it. */
  initialDelayMs?: number | undefined;
  /** Upper bound of any delay in ms (default 10 000). */
  maxDelayMs?: number | undefined;
}

/**
 * Delay before attempt `attempt` (1 = first retry): `base * 2^(attempt-1)`,
 * capped at `maxDelayMs`, then "equal jitter" (a random point in the upper
 * half) so many clients dropped together do not come back together, while
 * never retrying sooner than half the base. A server's `retry:` (`baseMs`)
 * is a minimum, as in the SSE reconnection rules: jitter never goes below it
 * (but the cap still bounds it). `atLeastMs` (a `Retry-After`) is honoured
 * even above the cap.
 */
export function backoffDelay(attempt: number, options: BackoffOptions, baseMs?: number, atLeastMs?: number): number {
  const base = baseMs ?? options.initialDelayMs ?? 500;
  const max = options.maxDelayMs ?? 10_000;
  const exp = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  const jittered = exp / 2 + Math.random() * (exp / 2);
  return Math.max(jittered, baseMs === undefined ? 0 : Math.min(baseMs, max), atLeastMs ?? 0);
}

/** The longest delay a timer holds (2^31 - 1 ms, about 24.8 days): longer ones fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** Resolves after `ms` (at most MAX_TIMER_MS), or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.min(ms, MAX_TIMER_MS));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** An AbortController that also aborts when `parent` does; `dispose()` unhooks it. */
export function childController(parent: AbortSignal | undefined): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  if (parent === undefined) return { controller, dispose: () => undefined };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, dispose: () => undefined };
  }
  const onAbort = (): void => controller.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return { controller, dispose: () => parent.removeEventListener("abort", onAbort) };
}
