/**
 * `mantyx-wire mock`'s options, through the CLI's own code (runCli, in
 * process, stopped by its abort signal): the URL alone on the first line,
 * `--quiet`, `--workspace`/`--api-key`, `--token` scopes (403 with
 * `WWW-Authenticate`), `--edition`, `--frames flat`, `--log json` (one line
 * per request, the credential in no form), `--script` (a YAML script played
 * by name; a broken one refused with file:line:col) and usage errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../generator/cli.js";
import { auth, raw } from "./helpers.js";

const scratch = mkdtempSync(join(tmpdir(), "mock-command-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Starts the command; resolves once it printed its URL. */
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

describe("mantyx-wire mock", () => {
  it("prints the URL alone first; --quiet prints nothing else; --workspace and --api-key are the credentials", async () => {
    const m = await mock(["--quiet", "--workspace", "demo", "--api-key", "mantyx_test"]);
    try {
      expect(m.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(m.out()).toBe(`${m.url}\n`);
      expect((await raw(m.url, "GET", "/api/v1/workspaces/demo/models", auth("mantyx_test"))).status).toBe(200);
      expect((await raw(m.url, "GET", "/api/v1/workspaces/acme/models", auth("mantyx_test"))).status).toBe(404);
    } finally {
      expect(await m.stop()).toBe(0);
    }
  });

  it("--token gives an OAuth-looking token scopes: a missing one is 403 insufficient_scope with WWW-Authenticate; the banner lists the tokens", async () => {
    const m = await mock(["--token", "mantyx_at_ro=runs:read,models:read", "--token", "mantyx_at_none="]);
    try {
      expect(m.out()).toContain("mantyx_at_ro (runs:read models:read)");
      expect((await raw(m.url, "GET", "/api/v1/workspaces/acme/models", auth("mantyx_at_ro"))).status).toBe(200);
      const refused = await raw(
        m.url,
        "POST",
        "/api/v1/workspaces/acme/agent-runs",
        auth("mantyx_at_ro"),
        JSON.stringify({ systemPrompt: "x", prompt: "y" }),
      );
      expect(refused.status).toBe(403);
      expect(refused.headers["www-authenticate"]).toContain('scope="runs:write"');
      expect((await raw(m.url, "GET", "/api/v1/workspaces/acme/models", auth("mantyx_at_none"))).status).toBe(403);
    } finally {
      await m.stop();
    }
  });

  it("--log json: one JSON line per request, never the credential (raw, URL-encoded, base64, JSON-escaped)", async () => {
    const secret = "mantyx_s3cr3t/+key";
    const m = await mock(["--quiet", "--log", "json", "--api-key", secret]);
    try {
      await raw(m.url, "GET", "/api/v1/workspaces/acme/models", auth(secret));
      await raw(m.url, "GET", "/api/v1/workspaces/acme/models", auth(`${secret}x`));
      await raw(
        m.url,
        "POST",
        "/api/v1/workspaces/acme/agent-runs",
        auth(secret),
        JSON.stringify({ systemPrompt: "x", prompt: "y", metadata: { scenario: "text" } }),
      );
    } finally {
      await m.stop();
    }
    const lines = m
      .out()
      .split("\n")
      .slice(1)
      .filter((l) => l !== "");
    expect(lines.map((l) => JSON.parse(l) as { status: number; operationId: string; credential: string })).toEqual([
      expect.objectContaining({ status: 200, operationId: "listModels", credential: "api-key" }),
      expect.objectContaining({ status: 401, credential: "unknown" }),
      expect.objectContaining({ status: 202, operationId: "createRun", credential: "api-key" }),
    ]);
    for (const form of [
      secret,
      encodeURIComponent(secret),
      Buffer.from(secret).toString("base64"),
      JSON.stringify(secret).slice(1, -1),
      "s3cr3t",
    ])
      expect(m.out()).not.toContain(form);
  });

  it("--edition 2026-09 and --frames flat shape what a run streams", async () => {
    const m = await mock(["--quiet", "--edition", "2026-09", "--frames", "flat"]);
    try {
      const created = await raw(
        m.url,
        "POST",
        "/api/v1/workspaces/acme/agent-runs",
        auth("mantyx_test_key"),
        JSON.stringify({ systemPrompt: "x", prompt: "y", metadata: { scenario: "text" } }),
      );
      expect(created.status).toBe(201);
      const stream = await raw(
        m.url,
        "GET",
        `/api/v1/workspaces/acme/agent-runs/${(created.json as { runId: string }).runId}/stream`,
        auth("mantyx_test_key"),
      );
      const last = stream.text.trim().split("\n").at(-1)!;
      expect(JSON.parse(last.slice("data: ".length))).toMatchObject({
        type: "result",
        ok: true,
        text: expect.any(String),
      });
    } finally {
      await m.stop();
    }
  });

  it("--script plays a YAML script by its file name; a script with a syntax error is refused with file:line:col", async () => {
    const file = join(scratch, "greeting.yaml");
    writeFileSync(
      file,
      "runs:\n  - events:\n      - { type: assistant_delta, data: { text: Hi } }\n      - { type: result, data: { subtype: success, text: Hi } }\n",
    );
    const m = await mock(["--quiet", "--script", file]);
    try {
      const created = await raw(
        m.url,
        "POST",
        "/api/v1/workspaces/acme/agent-runs",
        auth("mantyx_test_key"),
        JSON.stringify({ systemPrompt: "x", prompt: "y", metadata: { scenario: "greeting" } }),
      );
      expect(created.status, created.text).toBe(202);
      const stream = await raw(
        m.url,
        "GET",
        `/api/v1/workspaces/acme/agent-runs/${(created.json as { runId: string }).runId}/stream`,
        auth("mantyx_test_key"),
      );
      expect(stream.text).toContain('"type":"assistant_delta","data":{"text":"Hi"}');
      expect(stream.text).toContain('"subtype":"success"');
    } finally {
      await m.stop();
    }
    const broken = join(scratch, "broken.yaml");
    writeFileSync(broken, "runs:\n  - events: [ { type: result\n");
    const bad = await mock(["--script", broken]);
    expect(bad.url).toBe("exit 2");
    expect(bad.err()).toMatch(
      new RegExp(`--script ${broken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+:\\d+: not valid YAML`),
    );
    const empty = join(scratch, "empty.json");
    writeFileSync(empty, '{"runs": []}');
    const refused = await mock(["--script", empty]);
    expect(refused.url).toBe("exit 2");
    expect(refused.err()).toContain("`runs` must be a non-empty array");
    const endless = join(scratch, "endless.json");
    writeFileSync(
      endless,
      JSON.stringify({ runs: [{ events: [{ type: "assistant_delta", data: { text: "and on" } }] }] }),
    );
    const open = await mock(["--script", endless]);
    expect(open.url).toBe("exit 2");
    expect(open.err()).toContain(`--script ${endless}: runs[0] must end with a terminal event`);
  });

  it("usage errors exit 2 with the fix", async () => {
    for (const [args, message] of [
      [["--port", "70000"], "--port wants a number from 0 to 65535"],
      [["--token", "=runs:read"], "--token wants TOKEN=scope1,scope2"],
      [["--max-body-bytes", "0"], "--max-body-bytes wants a positive number"],
    ] as const) {
      const m = await mock([...args]);
      expect(m.url).toBe("exit 2");
      expect(m.err()).toContain(message);
    }
  });
});
