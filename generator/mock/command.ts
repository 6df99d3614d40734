/**
 * `mantyx-wire mock`: starts the mock server on 127.0.0.1 and serves until
 * SIGINT/SIGTERM (or `stop`, for tests). The first line of stdout is the
 * server's URL alone, so a script can read it (`--port 0` picks any free
 * port); a banner with the workspace, the credentials and a curl follows.
 */
import type { CliEnv } from "../cli.js";
import { isFaultSpecError } from "./faults/index.js";
import { startMockServer } from "./server.js";

export interface MockCommandOptions {
  readonly port: string;
  readonly older?: boolean;
  /** `--fault <spec>`, repeatable: faults for every run (generator/mock/faults/spec.ts). */
  readonly fault?: readonly string[];
}

/** Resolves to the exit code once the server has stopped (2 if it could not start). */
export async function runMock(options: MockCommandOptions, io: CliEnv, stop?: AbortSignal): Promise<number> {
  const port = Number(options.port);
  if (!/^\d+$/.test(options.port) || port > 65535) {
    io.stderr(`mantyx-wire mock: --port wants a number from 0 to 65535 (0: any free port), got ${JSON.stringify(options.port)}\n`);
    return 2;
  }
  const vintage = options.older === true ? "older" : "newer";
  let server;
  try {
    server = await startMockServer({ port, vintage, ...(options.fault === undefined ? {} : { faults: options.fault.join(",") }) });
  } catch (error) {
    if (isFaultSpecError(error)) {
      io.stderr(`mantyx-wire mock: ${error.message}\n  (the README's fault table lists every fault; items are name[=value][@connections], separated by commas)\n`);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    io.stderr(`mantyx-wire mock: cannot listen on 127.0.0.1:${port} (${code}); pass --port <another> (0: any free port)\n`);
    return 2;
  }
  io.stdout(`${server.url}
MANTYX mock server (${vintage} document vintage)
  workspace: ${server.workspace}
  API key:   ${server.apiKey}  (all scopes; the OAuth token mantyx_at_readonly has runs:read only)
  scenarios: metadata.scenario = text | many | tools | slow | legacy | legacy-failure | unknown-type |
             invalid | invalid-no-id | invalid-terminal | truncated | structured
             (a run declaring client-resolved tools plays "tools" by default)

  curl -s -X POST ${server.url}/api/v1/workspaces/${server.workspace}/agent-runs \\
    -H 'Authorization: Bearer ${server.apiKey}' -H 'Content-Type: application/json' \\
    -d '{"prompt":"Hello","metadata":{"scenario":"text"}}'
  curl -sN ${server.url}/api/v1/workspaces/${server.workspace}/agent-runs/<runId>/stream -H 'Authorization: Bearer ${server.apiKey}'

Ctrl-C stops it.
`);
  await new Promise<void>((resolve) => {
    const done = (): void => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      resolve();
    };
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
    if (stop?.aborted === true) done();
    stop?.addEventListener("abort", done, { once: true });
  });
  await server.close();
  return 0;
}
