/** Internal: bounded exponential back-off with jitter (requests and stream reconnects), an abortable sleep, and linked abort controllers. */

export interface BackoffOptions {
  /** First delay in ms (default 500 for request retries, 200 for stream reconnects). A stream's `retry:` field replaces it. */
  initialDelayMs?: number | undefined;
  /** Upper bound of the client's own back-off in ms (default 10 000 for requests, 5 000 for reconnects); a server's `retry:` or `Retry-After` is honoured above it, up to `MAX_SERVER_DELAY_MS`. */
  maxDelayMs?: number | undefined;
}

/**
 * The longest wait a server can ask for and get: a `Retry-After` or a
 * stream's `retry:` of more than 60 s is not honoured (the client's own
 * back-off applies instead, as if none had been sent), so a server (or a
 * proxy) asking for an hour, a day or a far-off date never hangs a call or
 * a stream: a request still fails after `maxRetries`, a stream after
 * `maxReconnects`, with the answer's error (its `retryAfterMs` says what the
 * server asked for). docs/client-faults.md.
 */
export const MAX_SERVER_DELAY_MS = 60_000;

/**
 * Delay before attempt `attempt` (1 = first retry): `base * 2^(attempt-1)`,
 * capped at `maxDelayMs`, then "equal jitter" (a random point in the upper
 * half) so many clients dropped together do not come back together. A
 * server's `retry:` (`serverMs`) is the base and a minimum, as in the SSE
 * reconnection rules (the server sets the reconnection time): jitter never
 * goes below it, and like `atLeastMs` (a `Retry-After`) it is honoured even
 * above the cap, which bounds only the client's own growth, but not above
 * `MAX_SERVER_DELAY_MS` (then it is ignored). Attempt 0 (a
 * stream reconnect after progress) is at once, with a little jitter.
 * `defaults`: the base and cap without options (request retries' unless
 * given).
 */
export function backoff(
  attempt: number,
  options: BackoffOptions | undefined,
  serverMs?: number,
  atLeastMs?: number,
  [first, cap] = [500, 1e4],
): number {
  const base = options?.initialDelayMs ?? first;
  // (A `retry:` over MAX_SERVER_DELAY_MS as the base only brings the client's own back-off to its cap.)
  const exp = Math.min(options?.maxDelayMs ?? cap, (serverMs ?? base) * 2 ** (attempt - 1));
  return Math.max(
    attempt ? exp / 2 + (Math.random() * exp) / 2 : Math.random() * Math.min(RESUME_JITTER_MS, base),
    ...[serverMs!, atLeastMs!].filter((ms) => ms <= MAX_SERVER_DELAY_MS),
  );
}

/** Stream reconnect defaults (`initialDelayMs`, `maxDelayMs`): a quick first retry, a short cap (a stream is waited on live). */
const RECONNECT_DEFAULTS: [number, number] = [200, 5000];

/** The most jitter added to a reconnect right after a connection that delivered events. */
const RESUME_JITTER_MS = 25;

/**
 * Delay before a stream reconnect, after `empties` connections in a row that
 * delivered no new event. 0 (the last connection made progress: a drop, not
 * an outage) reconnects at once, with a little jitter; from then on the
 * back-off grows over empty connections only. A `retry:` (`serverMs`) and a
 * `Retry-After` (`atLeastMs`) are minimums either way.
 */
export const reconnectDelay = (
  empties: number,
  options: BackoffOptions | undefined,
  serverMs?: number,
  atLeastMs?: number,
): number => backoff(empties, options, serverMs, atLeastMs, RECONNECT_DEFAULTS);

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
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", stop);
        resolve();
      },
      Math.min(ms, 2 ** 31 - 1),
    );
    if (signal?.aborted) stop();
    signal?.addEventListener("abort", stop);
  });

/**
 * An AbortController that also aborts when `parent` does; aborting it
 * unhooks it from `parent`, and so does `unhook` without aborting it.
 */
export function linked(parent: AbortSignal | undefined): AbortController & { unhook(): void } {
  const c = new AbortController();
  const follow = (): void => c.abort(parent!.reason);
  if (parent?.aborted) follow();
  parent?.addEventListener("abort", follow, { signal: c.signal });
  return Object.assign(c, { unhook: () => parent?.removeEventListener("abort", follow) });
}
