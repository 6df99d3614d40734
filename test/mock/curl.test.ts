/**
 * docs/mock.md's session as a Go or Python maintainer runs it: the
 * mock started as `mantyx-wire mock --port 0 --workspace demo --api-key
 * mantyx_test` (the CLI in its own process), then `curl` alone: create a
 * run with a local tool, read its stream with `curl -N`, post the tool
 * result while the stream waits, and watch the stream end with `result`.
 * The commands are docs/mock.md's own lines (each is asserted to be in it).
 * Needs curl; without it the test is skipped and says why.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const tsx = createRequire(import.meta.url).resolve("tsx");
const readme = readFileSync(new URL("../../docs/mock.md", import.meta.url), "utf8");
const hasCurl = ((): boolean => {
  try {
    execFileSync("curl", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!hasCurl) console.warn("test/mock/curl.test.ts: skipped, no curl on PATH");

/** The run docs/mock.md creates (its -d body, verbatim). */
const CREATE = `{"systemPrompt":"You are a cashier.","prompt":"What is 42 USD with tax?","tools":[{"kind":"local","name":"compute_total","parameters":{"type":"object","properties":{"amount":{"type":"number"},"currency":{"type":"string","enum":["USD","EUR"]}},"required":["amount","currency"]}}]}`;
const RESULT = (toolUseId: string): string => `{"toolUseId":"${toolUseId}","result":"{\\"total\\":50.4}"}`;

let mock: ChildProcess;
let base: string;

beforeAll(async () => {
  if (!hasCurl) return;
  mock = spawn(
    process.execPath,
    ["--import", tsx, "generator/main.ts", "mock", "--port", "0", "--workspace", "demo", "--api-key", "mantyx_test"],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    mock.stdout!.on("data", (d: Buffer) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    mock.once("exit", (code) => reject(new Error(`mantyx-wire mock exited (${code})`)));
  });
  base = `${url}/api/v1/workspaces/demo`;
}, 60_000);

afterAll(async () => {
  if (mock === undefined) return;
  const exited = new Promise((resolve) => mock.once("exit", resolve));
  mock.kill("SIGTERM");
  await exited;
});

describe.skipIf(!hasCurl)("curl against mantyx-wire mock (skipped without curl)", () => {
  it("docs/mock.md's commands are these", () => {
    expect(readme).toContain(
      "npx -p @mantyx/wire-gen mantyx-wire mock --port 0 --workspace demo --api-key mantyx_test",
    );
    expect(readme).toContain(`-d '${CREATE}'`);
    expect(readme).toContain(`curl -N "$MOCK/agent-runs/$RUN/stream" -H "Authorization: Bearer mantyx_test"`);
    expect(readme).toContain(`-d '${RESULT("$TOOL_USE_ID")}'`.replace('"$TOOL_USE_ID"', '"\'"$TOOL_USE_ID"\'"'));
  });

  it("a one-shot run with a local tool: create, stream with -N, post the result, the stream ends with result", async () => {
    const auth = ["-H", "Authorization: Bearer mantyx_test", "-H", "Content-Type: application/json"];
    const created = JSON.parse(
      (await promisify(execFile)("curl", ["-s", "-X", "POST", `${base}/agent-runs`, ...auth, "-d", CREATE])).stdout,
    ) as { runId: string };
    const stream = spawn(
      "curl",
      ["-N", "-s", `${base}/agent-runs/${created.runId}/stream`, "-H", "Authorization: Bearer mantyx_test"],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let text = "";
    const ended = new Promise<number | null>((resolve) => stream.once("exit", resolve));
    const toolUseId = await new Promise<string>((resolve) => {
      stream.stdout!.on("data", (d: Buffer) => {
        text += d;
        const call = /"type":"local_tool_call","data":\{"toolUseId":"([^"]+)"/.exec(text);
        if (call !== null) resolve(call[1]!);
      });
    });
    // The stream is still open, waiting for the result.
    expect(text).not.toContain("event: result");
    const posted = await promisify(execFile)("curl", [
      "-s",
      "-o",
      "/dev/null",
      "-w",
      "%{http_code}",
      "-X",
      "POST",
      `${base}/agent-runs/${created.runId}/tool-results`,
      ...auth,
      "-d",
      RESULT(toolUseId),
    ]);
    expect(posted.stdout).toBe("200");
    expect(await ended).toBe(0);
    expect(text).toContain(
      `"type":"local_tool_result_in","data":{"toolUseId":"${toolUseId}","result":"{\\"total\\":50.4}"}`,
    );
    const last = text.trim().split("\n").at(-1)!;
    expect(JSON.parse(last.slice("data: ".length))).toMatchObject({ type: "result", data: { subtype: "success" } });
  }, 60_000);
});
