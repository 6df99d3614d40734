/**
 * `npm run mock [-- --port 8787] [--older]`: the mock MANTYX server the tests
 * and the demo use, on 127.0.0.1, until Ctrl-C. It speaks every route of the
 * schema with scripted runs, for trying a client (this one, or another SDK)
 * by hand. A run's script is chosen by its `metadata.scenario`; the knobs
 * are described in test/mock-server/scenarios.ts.
 */
import { startMockServer } from "../test/mock-server/index.js";

const args = process.argv.slice(2);
const portAt = args.indexOf("--port");
const port = portAt >= 0 ? Number(args[portAt + 1]) : 8787;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`mock: --port wants a number from 0 to 65535, got ${JSON.stringify(args[portAt + 1])}`);
  process.exit(2);
}
const server = await startMockServer({ port, vintage: args.includes("--older") ? "older" : "newer" }).catch((error: NodeJS.ErrnoException) => {
  console.error(`mock: cannot listen on 127.0.0.1:${port} (${error.code ?? error.message}); pass --port <another> (0: any free port)`);
  process.exit(2);
});

console.log(`MANTYX mock server (${args.includes("--older") ? "older" : "newer"} document vintage) at ${server.url}
  workspace: ${server.workspace}
  API key:   ${server.apiKey}  (all scopes; the OAuth token mantyx_at_readonly has runs:read only)
  scenarios: metadata.scenario = text | many | tools | slow | legacy | legacy-failure | unknown-type |
             invalid | invalid-no-id | invalid-terminal | truncated | structured
             (a run declaring client-resolved tools plays "tools" by default)

  curl -s -X POST ${server.url}/api/v1/workspaces/${server.workspace}/agent-runs \\
    -H 'Authorization: Bearer ${server.apiKey}' -H 'Content-Type: application/json' \\
    -d '{"prompt":"Hello","metadata":{"scenario":"text"}}'
  curl -sN ${server.url}/api/v1/workspaces/${server.workspace}/agent-runs/<runId>/stream -H 'Authorization: Bearer ${server.apiKey}'

Ctrl-C stops it.`);

const stop = (): void => void server.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
