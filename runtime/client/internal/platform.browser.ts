/**
 * Internal: ./platform.ts as a browser needs it (the `browser` condition of
 * the package's `#client-platform` import). A browser owns `User-Agent`,
 * and follows a redirect itself or, asked not to (`manual`), hides it in an
 * opaque response: a redirect loop of the client's own could never run.
 */
import type { Hop } from "./platform.js";

export type { Hop };

/** A browser sends its own User-Agent. */
export const platformHeaders = (_version: string, _userAgent: string | undefined): Record<string, string> => ({});

/** A browser's fetch error tells a page no reason for the failure (no `cause`): there is none to add. */
export const failureReason = (_error: unknown): string => "";

/**
 * fetch of `hop`; with a credential outside Authorization (`carried`),
 * which a browser would forward to the origin a redirect names, a redirect
 * is not followed but refused (`hidden()`, thrown).
 */
export async function send(
  fetchFn: typeof fetch,
  hop: Hop,
  carried: readonly string[],
  hidden: () => Error,
): Promise<Response> {
  const response = await fetchFn(hop.url, { ...hop, redirect: carried.length ? "manual" : "follow" });
  if (response.type == "opaqueredirect") throw hidden();
  return response;
}
