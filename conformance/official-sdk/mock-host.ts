/**
 * The official-SDK harness's mock servers, in one Node process the Python
 * harness starts (mock_host.py). It speaks JSON lines on stdin/stdout:
 * the first line out is `{"ready": true}`; then each line in is a command
 * `{ "id", "op", ... }` and gets one line out, `{ "id", "ok", "result" | "error" }`.
 * Ops: `start` (a mock server with `edition`, `frames`; returns its `name` and `url`),
 * `rate-limit` (the next `count` requests of any route answer
 * 429 with `Retry-After: retryAfterSeconds`), `stop`. Everything else the harness learns over HTTP, as a
 * client. Harness-only plumbing: the mock itself is generator/mock (`mantyx-wire mock`); stream faults are asked for per run with its `X-Mock-Fault` header, a rate limit on the run's creation only through this module API.
 */
import { createInterface } from "node:readline";
import { startMockServer, type MockServer } from "../../generator/mock/index.js";

type Command = { id: number; op: string; [key: string]: unknown };

const servers = new Map<string, MockServer>();

function serverOf(cmd: Command): MockServer {
  const server = servers.get(String(cmd["server"]));
  if (server === undefined) throw new Error(`no mock server ${JSON.stringify(cmd["server"])}; start one first`);
  return server;
}

async function execute(cmd: Command): Promise<unknown> {
  switch (cmd.op) {
    case "start": {
      const name = `${String(cmd["edition"])}/${String(cmd["frames"])}`;
      const existing = servers.get(name);
      if (existing !== undefined) return { name, url: existing.url };
      const server = await startMockServer({
        port: 0,
        workspace: String(cmd["workspace"]),
        apiKey: String(cmd["apiKey"]),
        edition: cmd["edition"] as "2026-10" | "2026-09",
        frames: cmd["frames"] as "envelope" | "flat" | "flat-untyped",
      });
      servers.set(name, server);
      return { name, url: server.url };
    }
    case "rate-limit": {
      serverOf(cmd).rateLimitNext(Number(cmd["count"]), Number(cmd["retryAfterSeconds"]));
      return {};
    }
    case "stop": {
      await Promise.all([...servers.values()].map((s) => s.close()));
      servers.clear();
      return {};
    }
    default:
      throw new Error(`unknown op ${JSON.stringify(cmd.op)}`);
  }
}

const out = (line: unknown): void => void process.stdout.write(`${JSON.stringify(line)}\n`);
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  let cmd: Command;
  try {
    cmd = JSON.parse(line) as Command;
  } catch (e) {
    out({ id: null, ok: false, error: `not JSON: ${String(e)}` });
    return;
  }
  execute(cmd).then(
    (result) => out({ id: cmd.id, ok: true, result }),
    (e: unknown) => out({ id: cmd.id, ok: false, error: e instanceof Error ? e.message : String(e) }),
  );
});
// The harness going away (its stdin closed) ends the host and every server.
lines.on("close", () => void execute({ id: 0, op: "stop" }).finally(() => process.exit(0)));
out({ ready: true });
