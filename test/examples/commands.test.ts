/**
 * The README's example commands as a user runs them: `npm run demo` (the
 * agent loop against the mock server) and `npm run mock` (the mock server on
 * its own, driven here by the client over real HTTP, then stopped).
 */
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import type { AgentRunEvent } from "../../generated/types.js";
import { runOutcome } from "../../index.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

describe("README commands", () => {
  it("npm run demo: runs an agent with a local tool to a successful end", async () => {
    const { stdout } = await promisify(execFile)("npm", ["run", "-s", "demo"], { cwd: root, timeout: 60_000 });
    expect(stdout).toMatch(/# posted the result of compute_total \(tu_\d+\): accepted/);
    expect(stdout).toMatch(/# run succeeded: /);
  }, 90_000);

  it("npm run mock -- --port 0: prints the URL (its first line), then the credentials, serves a run, and stops on SIGTERM", async () => {
    // Its own process group, so that the stop below reaches npm, tsx and node alike (as Ctrl-C in a terminal does).
    const child = spawn("npm", ["run", "-s", "mock", "--", "--port", "0"], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
      detached: true,
    });
    try {
      let out = "";
      const banner = await new Promise<string>((resolve, reject) => {
        child.stdout!.on("data", (d: Buffer) => {
          out += d;
          if (out.includes("Ctrl-C stops it.")) resolve(out);
        });
        child.once("exit", (code) => reject(new Error(`npm run mock exited (${code}) before it was ready:\n${out}`)));
      });
      const url = banner.split("\n")[0]!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const apiKey = /API key:\s+(\S+)/.exec(banner)![1]!;
      const workspace = /workspace:\s+(\S+)/.exec(banner)![1]!;
      const client = new MantyxClient({ baseUrl: url, workspace, apiKey });
      const { runId } = await client.createRun({
        systemPrompt: "You are helpful.",
        prompt: "Hello",
        metadata: { scenario: "text" },
      });
      const events: AgentRunEvent[] = [];
      for await (const event of client.streamRun(runId)) events.push(event);
      expect(runOutcome(events[events.length - 1]!)).toBe("succeeded");
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
  }, 60_000);
});
