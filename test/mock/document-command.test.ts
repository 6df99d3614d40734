/**
 * `mantyx-wire mock --schema <document>` through the CLI's own code (runCli,
 * in process, stopped by its abort signal): the URL alone on the first
 * line, the banner listing the operations, `--fault` on every stream,
 * `--log json`, and what is refused with exit 2 (a document the loader
 * refuses, with its file:line; an invalid fault spec).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../generator/cli.js";
import { parseSse, type SseMessage } from "../../runtime/sse/index.js";

const DOCUMENT = fileURLToPath(new URL("./documents/streams-3.1.yaml", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "mock-document-command-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function mock(
  args: string[],
): Promise<{ url: string; out: () => string; err: () => string; stop: () => Promise<number> }> {
  let out = "";
  let err = "";
  const stop = new AbortController();
  let ready: (url: string) => void = () => undefined;
  const url = new Promise<string>((resolve) => (ready = resolve));
  const exit = runCli(["mock", "--port", "0", ...args], {
    stdout: (t) => {
      out += t;
      if (out.includes("\n")) ready(out.split("\n")[0]!);
    },
    stderr: (t) => (err += t),
    cwd: scratch,
    stop: stop.signal,
  });
  const first = await Promise.race([url, exit.then((code) => `exit ${code}`)]);
  return {
    url: first,
    out: () => out,
    err: () => err,
    stop: () => {
      stop.abort();
      return exit;
    },
  };
}

describe("mantyx-wire mock --schema", () => {
  it("serves the document: the URL first, then the operations; --fault applies to every stream; --log json logs each request", async () => {
    const m = await mock(["--schema", DOCUMENT, "--fault", "eol=cr@*", "--retry-ms", "250", "--log", "json"]);
    try {
      expect(m.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(m.out()).toContain("POST /chat (chat)");
      expect(m.out()).toContain("GET /pets/{petId} (getPet)");
      const pets = await fetch(`${m.url}/pets/mine`);
      expect(await pets.json()).toEqual({ id: 7, name: "Mine", kind: "cat" });
      const stream = await fetch(`${m.url}/events`);
      expect(stream.headers.get("x-mock-faults")).toBe("eol=cr");
      const got: SseMessage[] = [];
      for await (const message of parseSse(stream.body!)) got.push(message);
      expect(got.map((e) => e.event)).toEqual(["created", "removed"]);
      expect(got[0]!.retry).toBe(250);
      const lines = m
        .out()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as { path: string; status: number; operationId: string });
      expect(lines.map((l) => [l.path, l.status, l.operationId])).toEqual([
        ["/pets/mine", 200, "getMyPet"],
        ["/events", 200, "watchEvents"],
      ]);
    } finally {
      expect(await m.stop()).toBe(0);
    }
  });

  it("a document the loader refuses is exit 2 with its file:line; so is an invalid --fault", async () => {
    const broken = join(scratch, "broken.yaml");
    writeFileSync(
      broken,
      "openapi: 3.1.0\ninfo: { title: x, version: '1' }\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: '#/components/schemas/Missing' }\n",
    );
    const bad = await mock(["--schema", broken]);
    expect(bad.url).toBe("exit 2");
    expect(bad.err()).toMatch(/broken\.yaml:11/);
    const fault = await mock(["--schema", DOCUMENT, "--fault", "drop-after"]);
    expect(fault.url).toBe("exit 2");
    expect(fault.err()).toContain("drop-after needs a value");
  });
});
