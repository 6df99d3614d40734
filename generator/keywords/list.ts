/**
 * `mantyx-wire keywords`: the vendor keywords the generator reads, where
 * each goes and what it means, and the naming rule, as the published
 * command prints them. Diagnostics point here (a user of the bin has no
 * copy of this repository's schema/CONVENTIONS.md, which says the same at
 * length).
 */
export interface KeywordEntry {
  readonly name: string;
  readonly where: string;
  readonly means: string;
}

/** Every vendor keyword, in the order printed (grouped: schemas, streams, operations, the document). */
export const KEYWORDS: readonly KeywordEntry[] = [
  { name: "x-max-utf8-bytes", where: "a string schema", means: "N: the UTF-8 encoding is at most N bytes" },
  { name: "x-max-json-bytes", where: "any schema", means: "N: JSON.stringify(value) is at most N UTF-8 bytes" },
  {
    name: "x-max-base64-bytes-total",
    where: "an array or object schema",
    means: "{ max, path }: the decoded bytes of every string reached by path, summed, are at most max",
  },
  {
    name: "x-base64",
    where: "a string schema",
    means: "{ alphabet: standard|url, padding: required|optional|forbidden }: the string is base64 (RFC 4648)",
  },
  {
    name: "x-greater-than",
    where: "an object schema",
    means: "[{ property: A, than: B }]: A > B when both are numbers",
  },
  {
    name: "x-not-greater-than",
    where: "an object schema",
    means: "[{ property: A, than: B }]: A <= B when both are numbers",
  },
  {
    name: "x-equal-properties",
    where: "an object schema",
    means: "[{ property: A, equals: B }]: A === B when both are present scalars",
  },
  {
    name: "x-last-non-system-role",
    where: "an array of messages",
    means: "a role: the last item that is not role system has that role",
  },
  {
    name: "x-property-only-on-last-role",
    where: "an array of messages",
    means: "{ property, role }: only the last item of that role may carry the property",
  },
  {
    name: "x-known-values",
    where: "a string schema",
    means: 'the values known today (annotation: any other value is valid; the type is "a" | "b" | (string & {}))',
  },
  {
    name: "x-enum-from-mapping",
    where: "where an enum would stand",
    means: '"#/components/schemas/Union": the enum is that oneOf\'s discriminator.mapping keys',
  },
  {
    name: "x-receive",
    where: "any schema",
    means: "[keywords]: kept at the receive level (what a client applies to what it reads), which would drop them",
  },
  {
    name: "x-strict-only",
    where: "any subschema",
    means:
      "true, or { section }: the subschema is a strict-level rule only (true at the receive level; with a section, a message that breaks it is delivered and reported once, naming the section)",
  },
  {
    name: "x-receive-default",
    where: "an object schema",
    means:
      "{ section, members: { name: default } }: at the receive level a missing member (or one of the wrong JSON type) is filled with the documented default and reported once; required as declared at the strict level",
  },
  { name: "x-terminal", where: "an event variant", means: "true: the event ends the stream (resumable event streams)" },
  {
    name: "x-transcript-rules",
    where: "components.schemas.RunTranscript",
    means: "sequence rules of a whole run transcript (the transcript emitter)",
  },
  {
    name: "itemSchema",
    where: "a text/event-stream or JSON-lines media type (OpenAPI 3.2)",
    means: "the schema of each event { id, event, data, retry } (of each line)",
  },
  {
    name: "x-item-schema",
    where: "a text/event-stream or JSON-lines media type",
    means: "the schema of each event's data, parsed as JSON (of each line); precedes `schema`",
  },
  {
    name: "schema",
    where: "a text/event-stream media type (3.0/3.1)",
    means:
      "event-shaped (properties among id, event, data, retry, with data): the event; anything else: each event's data, JSON (a warning says which where it is a guess)",
  },
  {
    name: "x-sse-sentinel",
    where: "a text/event-stream media type",
    means: 'the data that ends a JSON stream cleanly (default "[DONE]"; null: none)',
  },
  {
    name: "x-sse-resume",
    where: "a text/event-stream media type",
    means:
      "true: the server resumes after Last-Event-ID, so a dropped stream reconnects (otherwise it fails naming lastEventId)",
  },
  {
    name: "x-stream-flag",
    where: "an operation answering JSON or a stream",
    means: "the boolean body property that selects the stream (default: `stream`): the overloads' flag",
  },
  {
    name: "x-resume",
    where: "an operation with a text/event-stream answer",
    means:
      "{ query, status }: the resumable, validated event stream (seq/type envelope, Last-Event-ID, a status probe)",
  },
  { name: "x-once-per", where: "an operation", means: "a body field: at most one request per value of it" },
  {
    name: "x-outcomes",
    where: "an operation with x-once-per",
    means: "{ status: name }: answers returned as named outcomes, not thrown",
  },
  { name: "x-idempotent", where: "an operation", means: "true: retried after a 5xx or a network failure" },
  {
    name: "x-pagination",
    where: "a list operation",
    means: "{ cursorParam, nextCursor, items }: cursor pages (<operation>Pages)",
  },
  {
    name: "x-client-option",
    where: "a path parameter",
    means: "an option name: filled from the client's (or the call's) option, not an argument",
  },
  { name: "x-required-scopes", where: "an operation", means: "the OAuth scopes the route needs" },
  {
    name: "x-client-name",
    where: "the document root",
    means: "an identifier: the generated client class (default ApiClient); its errors carry its name less Client",
  },
  {
    name: "x-fixture-suite",
    where: "the document root",
    means: "mantyx-agent-runs: emit the MANTYX cross-language fixture suite",
  },
];

/** The naming rule, as printed. */
export const NAMES_RULE = [
  "A component's type name is its name when that is an identifier, else its words in PascalCase (Links-Booking -> LinksBooking, v1.Thing -> V1Thing);",
  "a leading digit gets a _, a reserved word a trailing _. Its validator is validate<TypeName> in validators/<kebab-case type name>.js.",
  "A method is the operationId when that is an identifier, else camelCase of its words; without one, the HTTP method and the path in PascalCase",
  "(GET /stations/{stationId}/departures -> getStationsByStationIdDepartures). Components that would share a type, validator or file name (ignoring case) get <Type>_2 / <file>-2, and operations that would share a method name <name>_2, with a warning.",
];

/** The text `mantyx-wire keywords` prints. */
export function keywordsText(): string {
  const width = Math.max(...KEYWORDS.map((k) => k.name.length));
  const lines = ["The vendor keywords mantyx-wire reads (anything else starting with x- is an annotation):", ""];
  for (const k of KEYWORDS) lines.push(`  ${k.name.padEnd(width)}  ${k.where}: ${k.means}`);
  lines.push("", "Names:", ...NAMES_RULE.map((line) => `  ${line}`), "", "");
  return lines.join("\n");
}
