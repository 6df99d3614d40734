/**
 * One operation's table entry (the runtime's `Operation`,
 * runtime/client/operation.ts) as plain data, and its rendering as the
 * TypeScript source the templates insert (`{{code entry}}`). ../client.ts
 * reads the document into a `TableEntry`; only `entrySource` writes source,
 * every value from the document through JSON.stringify, every name a
 * checked identifier.
 */

export interface TableEntry {
  /** The HTTP method as the document writes it (`GET`, or a 3.2 additional one as written). */
  readonly method: string;
  readonly path: string;
  /** `x-idempotent: true` (GET and DELETE are so without it). */
  readonly idempotent: boolean;
  /** Some success answer has no body. */
  readonly emptyOk: boolean;
  /** The request body's all-errors validator, by name: checked where validated, else a body taken unchecked. */
  readonly bodyValidator: string | undefined;
  /** A body without validators (an inline schema, or not JSON). */
  readonly takesBody: boolean;
  readonly bodyMedia: string | undefined;
  /** A resumable event stream: its spec's name (validated), its terminal types and payload member (unvalidated), its `x-resume`. */
  readonly stream:
    | {
        readonly spec: string;
        readonly terminal: unknown;
        readonly payload: string | undefined;
        readonly resumeQuery: string | undefined;
        readonly status: unknown;
      }
    | undefined;
  /** Path parameters written otherwise than as one encoded scalar: wire name and style, in path order. */
  readonly pathStyles: ReadonlyArray<readonly [string, string]>;
  /** An item stream: its mode, whether the answer may be JSON instead, its sentinel and resume. */
  readonly items:
    | {
        readonly mode: string;
        readonly either: boolean;
        readonly sentinel: string | undefined;
        readonly resume: boolean;
      }
    | undefined;
  readonly answer: "text" | "blob" | undefined;
  /** Query, header and cookie parameters by where they go: wire names and styles, sorted; `list` writes them as revision 4's list of names. */
  readonly params: ReadonlyArray<{
    readonly where: string;
    readonly list: boolean;
    readonly members: ReadonlyArray<readonly [string, string]>;
  }>;
  /** Security requirement alternatives (per-scheme credentials only). */
  readonly security: ReadonlyArray<readonly string[]> | undefined;
  readonly pages: { readonly cursorParam: unknown; readonly nextCursor: unknown; readonly items: unknown } | undefined;
  /** At most once per value of body field `key`, outcomes by status. */
  readonly once: { readonly key: unknown; readonly outcomes: ReadonlyArray<readonly [number, string]> } | undefined;
}

const j = (value: unknown): string => JSON.stringify(value);

/** The entry as TypeScript source; `unvalidated`: without validators (a body taken unchecked, an event spec of terminal types and payload only). */
export function entrySource(entry: TableEntry, unvalidated: boolean): string {
  const fields: string[] = [`method: ${j(entry.method)}`, `path: ${j(entry.path)}`];
  if (entry.idempotent) fields.push("idempotent: true");
  if (entry.emptyOk) fields.push("emptyOk: true");
  if (entry.bodyValidator !== undefined) fields.push(unvalidated ? "takesBody: true" : `body: ${entry.bodyValidator}`);
  else if (entry.takesBody) fields.push("takesBody: true");
  if (entry.bodyMedia !== undefined) fields.push(`bodyMedia: ${j(entry.bodyMedia)}`);
  if (entry.stream !== undefined) {
    const { spec, terminal, payload, resumeQuery, status } = entry.stream;
    const rest: string[] = [];
    if (resumeQuery !== undefined) rest.push(`resumeQuery: ${j(resumeQuery)}`);
    if (status !== undefined) rest.push(`status: ${j(status)}`);
    // Without validators, the spec's terminal types and payload member only (the envelope is still checked).
    const events = unvalidated
      ? `{ terminal: ${j(terminal)}${payload !== undefined ? `, payload: ${j(payload)}` : ""} }`
      : spec;
    fields.push(`stream: { ${[`events: ${events}`, ...rest].join(", ")} }`);
  }
  if (entry.pathStyles.length > 0)
    fields.push(`pathStyles: { ${entry.pathStyles.map(([name, style]) => `${j(name)}: ${j(style)}`).join(", ")} }`);
  if (entry.items !== undefined) {
    fields.push(`items: ${j(entry.items.mode)}`);
    if (entry.items.either) fields.push("either: true");
    if (entry.items.sentinel !== undefined) fields.push(`sentinel: ${j(entry.items.sentinel)}`);
    if (entry.items.resume) fields.push("resume: true");
  }
  if (entry.answer !== undefined) fields.push(`answer: ${j(entry.answer)}`);
  if (entry.params.length > 0) {
    const spec = entry.params.map(({ where, list, members }) =>
      list
        ? `${where}: [${members.map(([name]) => j(name)).join(", ")}]`
        : `${where}: { ${members.map(([name, style]) => `${j(name)}: ${j(style)}`).join(", ")} }`,
    );
    fields.push(`params: { ${spec.join(", ")} }`);
  }
  if (entry.security !== undefined) fields.push(`security: ${j(entry.security)}`);
  if (entry.pages !== undefined) fields.push(`pages: ${j(entry.pages)}`);
  if (entry.once !== undefined)
    fields.push(
      `once: { key: ${j(entry.once.key)}, outcomes: { ${entry.once.outcomes.map(([status, name]) => `${status}: ${j(name)}`).join(", ")} } }`,
    );
  return `{ ${fields.join(", ")} }`;
}
