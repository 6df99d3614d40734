/**
 * Inline file bytes in request bodies (agent-runs §4.0.1 `input_file.data`,
 * wire-protocol §5 `files[].data`) are base64 (`x-base64` on `Base64Data`):
 * malformed base64 is refused before it is sent, with an issue naming its
 * path, also in a 5 MB attachment (a regular expression counting groups of 4
 * overflows V8's stack there); well-formed base64, padded or not, is sent.
 * Against the mock server over HTTP; with validation off, the mock refuses
 * the same body itself (it checks bodies with the same strict validators).
 */
import { describe, expect, it } from "vitest";
import type { RunCreateRequest, ToolResultRequest } from "../../generated/types.js";
import { isMantyxApiError, isRequestValidationError, type RequestValidationError } from "../../index.js";
import { clientFor, useMockServer } from "./helpers.js";

const server = useMockServer();

/** Base64 of `bytes` bytes, padded (a length of 4n). */
const base64Of = (bytes: number): string => Buffer.alloc(bytes, 0x5a).toString("base64");
const FIVE_MB = 5 * 1024 * 1024;
/** Half of it, a multiple of 3: its base64 has no padding, so two halves join into one unpadded string. */
const HALF = 2_621_439;

const runWith = (data: string): RunCreateRequest => ({
  systemPrompt: "You read files.",
  messages: [
    {
      role: "user",
      content: "What is in it?",
      attachments: [{ type: "input_file", mimeType: "application/pdf", filename: "big.pdf", data }],
    },
  ],
});
const resultWith = (data: string): ToolResultRequest => ({
  toolUseId: "tu_1",
  result: "see the file",
  files: [{ filename: "chart.png", mimeType: "image/png", data }],
});

const ATTACHMENT = "/messages/0/attachments/0/data";

async function refused(send: () => Promise<unknown>): Promise<RequestValidationError> {
  const before = server().requests.length;
  const error = await send().catch((e: unknown) => e);
  expect(isRequestValidationError(error)).toBe(true);
  // Refused before it left: the server saw nothing.
  expect(server().requests.length).toBe(before);
  return error as RequestValidationError;
}

describe("base64 in request bodies", () => {
  it("a 5 MB attachment of well-formed base64 is sent", async () => {
    const { runId } = await clientFor(server()).createRun(runWith(base64Of(FIVE_MB)));
    expect(runId).toMatch(/^run_/);
  });

  for (const [name, data, problem] of [
    ["one character too many (a length of 4n+1)", `${base64Of(FIVE_MB - 2)}Q`, "a length no base64 string has"],
    ["an = in the middle", `${base64Of(HALF)}=${base64Of(HALF)}`, '"=" before the end'],
    [
      "a URL-safe character in the middle",
      `${base64Of(HALF)}-${base64Of(HALF).slice(1)}`,
      "a character outside the alphabet",
    ],
  ] as const) {
    it(`a 5 MB attachment with ${name} is refused before sending, the issue naming its path`, async () => {
      const e = await refused(() => clientFor(server()).createRun(runWith(data)));
      const issue = e.issues.find((i) => i.keyword === "x-base64");
      expect(issue?.instancePath).toBe(ATTACHMENT);
      expect(issue?.message).toContain(problem);
      expect(e.message).toContain(ATTACHMENT);
    });
  }

  for (const [name, data] of [
    ["a length of 4n+1", "QUJDR"],
    ["= that completes no group of 4", "QQ="],
    ["a line break", "QUJD\nQUJD"],
    ["a data-URL prefix", "data:image/png;base64,iVBORw0KGgo="],
  ] as const) {
    it(`a tool result whose file data has ${name} is refused before sending, at /files/0/data`, async () => {
      const e = await refused(() => clientFor(server()).postToolResult("run_1", resultWith(data)));
      expect(e.issues.filter((i) => i.keyword === "x-base64").map((i) => i.instancePath)).toEqual(["/files/0/data"]);
    });
  }

  it("unpadded base64 is sent (the documents do not ask for padding)", async () => {
    const { runId } = await clientFor(server()).createRun(runWith("JVBERi0xLjQ"));
    expect(runId).toMatch(/^run_/);
  });

  it('with validation "off" the body goes out, and the mock refuses it with 400 naming the path', async () => {
    const error = await clientFor(server(), { validation: "off" })
      .createRun(runWith("QUJDR"))
      .catch((e: unknown) => e);
    expect(isMantyxApiError(error)).toBe(true);
    expect((error as { status: number }).status).toBe(400);
    expect(JSON.stringify((error as { body: unknown }).body)).toContain(ATTACHMENT);
  });
});
