/**
 * Internal: what the client does differently in a browser, for servers and
 * edge runtimes (Node, Deno, Bun, workers). A bundle for browsers gets
 * ./platform.browser.ts instead: the package's `#client-platform` import
 * (package.json `imports`, `browser` condition; scripts/build.mjs points
 * the compiled core at it), so no browser bundle carries this file's
 * redirect loop, which a browser could never run.
 */

/** The redirect statuses fetch follows (Fetch, "redirect status"). */
const REDIRECTS = [301, 302, 303, 307, 308];

/** A request as `send` makes it: fetch's init, with the URL. */
export interface Hop {
  url: string;
  method: string;
  headers: Headers;
  body: BodyInit | undefined;
  signal: AbortSignal | undefined;
}

/**
 * The headers every request starts from: `User-Agent` (plus the caller's
 * product token), but where a browser owns it (a page or a worker: this
 * file may still run in one, through a bundler that ignores the `browser`
 * condition).
 */
export const platformHeaders = (version: string, userAgent: string | undefined): Record<string, string> =>
  "document" in globalThis || "WorkerGlobalScope" in globalThis
    ? {}
    : { "user-agent": `@mantyx/wire-types/${version}${userAgent ? ` ${userAgent}` : ""}` };

/**
 * The reason of a failed fetch, as ` (reason)`: its own message is often
 * just "fetch failed", the reason (ECONNREFUSED, a DNS failure, …) is its
 * cause's. (A browser tells a page no reason.)
 */
export const failureReason = (error: unknown): string => {
  const reason = (error as { cause?: { message?: unknown; code?: unknown } } | undefined)?.cause;
  const detail = reason?.message || reason?.code;
  return typeof detail == "string" ? ` (${detail})` : "";
};

/**
 * fetch of `hop`. fetch forwards every header but Authorization to the
 * origin a redirect names; a request with a credential in another header
 * (`carried`: X-API-Key, an API-key scheme's, a cookie) follows its
 * redirects here instead, and leaves the credentials behind on a hop to
 * another origin. A browser answers such a request's redirect with an
 * opaque response (no status, no Location): that is `hidden()`, thrown.
 */
export async function send(
  fetchFn: typeof fetch,
  hop: Hop,
  carried: readonly string[],
  hidden: () => Error,
): Promise<Response> {
  for (let hops = 0; ; hops++) {
    // Called unbound: a browser's window.fetch called as a method of another object throws "Illegal invocation".
    const response = await fetchFn(hop.url, { ...hop, redirect: carried.length ? "manual" : "follow" });
    if (response.type == "opaqueredirect") throw hidden();
    const { status } = response;
    const location = carried.length && REDIRECTS.includes(status) && response.headers.get("location");
    if (!location) return response;
    if (hops == 20) throw new TypeError("redirect count exceeded");
    await response.body?.cancel().catch(() => undefined);
    const next = new URL(location, hop.url);
    // Fetch's "HTTP-redirect fetch": a 303 (and a POST's 301/302) becomes a GET without its body.
    const toGet = (status == 303 && hop.method != "HEAD") || (status < 303 && hop.method == "POST");
    const sent = new Headers(hop.headers);
    if (next.origin != new URL(hop.url).origin) for (const name of ["authorization", ...carried]) sent.delete(name);
    if (toGet) {
      sent.delete("content-type");
      hop = { ...hop, method: "GET", body: undefined };
    }
    hop = { ...hop, url: next.href, headers: sent };
  }
}
