/**
 * Cursor pagination as async iteration: the `<operation>Pages` method a
 * generated client has for each operation its schema marks `x-pagination`.
 * Each page is fetched with the cursor the previous one named; the
 * iteration ends when a page names none (absent, null or empty), or names a
 * cursor it already gave (a server bug must not loop forever).
 */
import { callOperation, type OperationKind } from "./core.js";
import type { PagesSpec } from "./operation.js";

type CallParams = { query?: Record<string, unknown> } & Record<string, unknown>;

/**
 * The pages of `fetchPage`, which sends one request with the given
 * parameters; `params` are the caller's (a cursor among them is the first
 * page's). Stops early when the consumer does (`break`).
 */
export async function* pagesOf<Page>(
  fetchPage: (params: CallParams) => Promise<Page>,
  spec: PagesSpec,
  params: CallParams | undefined,
): AsyncGenerator<Page, void> {
  const seen = new Set<string>();
  let query = { ...params?.query };
  for (;;) {
    const page = await fetchPage({ ...params, query });
    yield page;
    const next = (page as Record<string, unknown> | null | undefined)?.[spec.nextCursor];
    if (next == null || next === "" || seen.has(String(next))) return;
    seen.add(String(next));
    query = { ...query, [spec.cursorParam]: next };
  }
}

/** Pages as an operation kind (core.ts): each page one call of the operation, with the same arguments but the parameters object. */
export const pagesKind: OperationKind = ({ client, id, operation, args, paramsIndex: at }) =>
  pagesOf(
    (params) =>
      callOperation(client, id, operation, [...args.slice(0, at), params, ...args.slice(at + 1)]) as Promise<unknown>,
    operation.pages!,
    args[at] as CallParams | undefined,
  );
