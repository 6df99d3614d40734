/**
 * JSDoc from schema annotations. Text from the schema is escaped so it
 * cannot end the comment early (`*\/`) and line breaks stay inside it.
 */

/** Escape one line of comment text. */
export function escapeJsDoc(text: string): string {
  return text.replaceAll("*/", "*\\/");
}

/** `/** ... *\/` lines at `indent`; none when there is nothing to say. */
export function renderJsDoc(lines: readonly string[], indent: string): string[] {
  const body = lines.flatMap((line) => line.split(/\r\n|\r|\n/)).map(escapeJsDoc);
  while (body.length > 0 && body[body.length - 1]!.trim() === "") body.pop();
  if (body.length === 0) return [];
  if (body.length === 1) return [`${indent}/** ${body[0]!.trim()} */`];
  return [
    `${indent}/**`,
    ...body.map((line) => `${indent} *${line.trim() === "" ? "" : ` ${line.trimEnd()}`}`),
    `${indent} */`,
  ];
}

/** Annotation keywords a schema may carry, as far as JSDoc is concerned. */
export interface DocSource {
  readonly title?: unknown;
  readonly description?: unknown;
  readonly default?: unknown;
  readonly deprecated?: unknown;
  readonly examples?: unknown;
  /** OpenAPI's deprecated singular form, used when `examples` is absent. */
  readonly example?: unknown;
}

/** Title, description, `@default`, `@deprecated`, `@example` (the first of `examples`, else `example`). */
export function docLines(schema: DocSource): string[] {
  const lines: string[] = [];
  const text = (value: unknown): string | undefined =>
    typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  const title = text(schema.title);
  const description = text(schema.description);
  if (title) lines.push(title);
  if (title && description) lines.push("");
  if (description) lines.push(description);
  if (schema.default !== undefined) lines.push(`@default ${JSON.stringify(schema.default)}`);
  if (schema.deprecated === true) lines.push("@deprecated");
  const example = Array.isArray(schema.examples) && schema.examples.length > 0 ? schema.examples[0] : schema.example;
  if (example !== undefined) {
    const compact = JSON.stringify(example);
    lines.push(compact.length <= 80 ? `@example ${compact}` : `@example\n${JSON.stringify(example, null, 2)}`);
  }
  return lines;
}
