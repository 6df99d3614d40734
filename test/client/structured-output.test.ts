/** parseStructuredOutput on terminal events from real runs. */
import { describe, expect, it } from "vitest";
import { validateOpaqueObject } from "../../generated/validators/index.js";
import { OutputParseError, parseStructuredOutput, runAgent } from "../../index.js";
import { clientFor, useMockServer } from "./helpers.js";

const server = useMockServer();

const isReport = (v: unknown): v is { city: string; tempC: number } =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as { city?: unknown }).city === "string" &&
  typeof (v as { tempC?: unknown }).tempC === "number";

async function terminalOf(metadata: Record<string, string>) {
  return runAgent(clientFor(server()), {
    systemPrompt: "You are helpful.",
    prompt: "weather",
    outputSchema: { name: "weather_report", schema: { type: "object" } },
    metadata,
  });
}

function failure(f: () => unknown): OutputParseError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(OutputParseError);
    return e as OutputParseError;
  }
  throw new Error("expected an OutputParseError");
}

describe("parseStructuredOutput", () => {
  it("parses and validates the reply", async () => {
    const terminal = await terminalOf({ scenario: "structured" });
    expect(parseStructuredOutput(terminal, isReport)).toEqual({ city: "Paris", tempC: 21 });
    expect(parseStructuredOutput(terminal, validateOpaqueObject)).toEqual({ city: "Paris", tempC: 21 });
    expect(parseStructuredOutput(terminal)).toEqual({ city: "Paris", tempC: 21 });
  });

  it("accepts a Zod-style safeParse validator", async () => {
    const terminal = await terminalOf({ scenario: "structured" });
    const schema = {
      safeParse: (v: unknown) => (isReport(v) ? { success: true, data: v } : { success: false, error: "nope" }),
    };
    expect(parseStructuredOutput(terminal, schema)).toEqual({ city: "Paris", tempC: 21 });
  });

  it('"not-json" when the reply does not parse', async () => {
    const terminal = await terminalOf({ scenario: "structured", output: "Sorry, I cannot answer that." });
    const e = failure(() => parseStructuredOutput(terminal, isReport));
    expect(e.type).toBe("not-json");
    expect(e.text).toBe("Sorry, I cannot answer that.");
  });

  it('"schema-mismatch" with the validator\'s errors', async () => {
    const terminal = await terminalOf({ scenario: "structured", output: '{"city":"Paris"}' });
    const validate = Object.assign((v: unknown): v is object => isReport(v), {
      errors: [{ message: "tempC missing" }],
    });
    const e = failure(() => parseStructuredOutput(terminal, validate));
    expect(e.type).toBe("schema-mismatch");
    expect(e.issues).toEqual([{ message: "tempC missing" }]);
  });

  it('"run-failed" for a truncation error, with partialText as a diagnostic only', async () => {
    const terminal = await terminalOf({ scenario: "truncated" });
    const e = failure(() => parseStructuredOutput(terminal, isReport));
    expect(e.type).toBe("run-failed");
    expect(e.partialText).toBe('{"answer": "par');
    expect(e.message).toContain("Model output was truncated");
  });

  it('"run-failed" for an older result with subtype error_…', async () => {
    const terminal = await runAgent(clientFor(server()), {
      systemPrompt: "You are helpful.",
      prompt: "x",
      metadata: { scenario: "legacy-failure" },
    });
    const e = failure(() => parseStructuredOutput(terminal));
    expect(e.type).toBe("run-failed");
    expect(e.partialText).toBeUndefined();
  });
});
