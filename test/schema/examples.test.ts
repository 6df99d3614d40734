import { describe, expect, it } from "vitest";
import { check, componentNames, document, validatorForSchema } from "./live-ajv.js";

describe("every example in the schema validates against its schema", () => {
  it("every component schema has at least one example", () => {
    const missing = componentNames.filter(
      (n) =>
        !Array.isArray(document.components.schemas[n].examples) || document.components.schemas[n].examples.length === 0,
    );
    expect(missing).toEqual([]);
  });

  for (const name of componentNames) {
    const examples: unknown[] = document.components.schemas[name].examples ?? [];
    examples.forEach((example, i) => {
      it(`${name} example ${i}`, () => {
        const { valid, errors } = check(name, example);
        expect(errors).toEqual([]);
        expect(valid).toBe(true);
      });
    });
  }

  // Examples on media types and named response examples (paths and components.responses).
  const mediaExamples: Array<{ where: string; schema: unknown; value: unknown }> = [];
  /** What this walk reads of a response: its media types' schema and examples. */
  type Content = Record<
    string,
    { schema?: unknown; example?: unknown; examples?: Record<string, { value?: unknown }> }
  >;
  const visitContent = (where: string, content: Content | undefined) => {
    for (const [type, media] of Object.entries(content ?? {})) {
      if (type !== "application/json") continue;
      if (media.example !== undefined)
        mediaExamples.push({ where: `${where} ${type}`, schema: media.schema, value: media.example });
      for (const [exName, ex] of Object.entries(media.examples ?? {})) {
        mediaExamples.push({ where: `${where} ${type} ${exName}`, schema: media.schema, value: ex.value });
      }
    }
  };
  for (const [name, response] of Object.entries<{ content?: Content }>(document.components.responses))
    visitContent(`responses.${name}`, response.content);
  for (const [path, item] of Object.entries<Record<string, { responses?: Record<string, { content?: Content }> }>>(
    document.paths,
  )) {
    for (const [method, op] of Object.entries(item)) {
      if (method === "parameters") continue;
      for (const [status, response] of Object.entries(op.responses ?? {}))
        visitContent(`${method.toUpperCase()} ${path} ${status}`, response.content);
    }
  }
  it("finds the media-type examples", () => {
    expect(mediaExamples.length).toBeGreaterThanOrEqual(10);
  });
  for (const { where, schema, value } of mediaExamples) {
    it(`media example ${where}`, () => {
      const fn = validatorForSchema(schema);
      expect(fn(value), JSON.stringify(fn.errors)).toBe(true);
    });
  }
});
