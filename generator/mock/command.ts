/**
 * `mantyx-wire mock`: starts the mock server on 127.0.0.1 and serves until
 * SIGINT/SIGTERM (or `stop`, for tests). The first line of stdout is the
 * server's URL alone, so a script can read it (`--port 0` picks any free
 * port); then, unless `--quiet`, a banner with the workspace, the
 * credentials, the scenarios and a curl; with `--log json`, one JSON line
 * per answered request (the credential never appears: only its kind).
 */
import type { CliEnv } from "../cli.js";
import { EDITIONS, isEdition, type Edition } from "./editions.js";
import { isFaultSpecError, parseFaultSpec } from "./faults/index.js";
import { loadScriptFile, ScriptError, type Script } from "./flow-player.js";
import type { FrameShape } from "./run-state.js";
import { startMockServer, type MockServer } from "./server.js";
import { serveUntilStopped } from "./engine/until-stopped.js";

export interface MockCommandOptions {
  readonly port: string;
  readonly workspace: string;
  readonly apiKey: string;
  readonly edition: string;
  readonly frames: string;
  readonly token?: readonly string[];
  readonly script?: readonly string[];
  readonly log?: string;
  readonly quiet?: boolean;
  readonly maxBodyBytes: string;
  /** `--older`: the same as `--edition older` (kept from the first mock). */
  readonly older?: boolean;
  /** `--fault <spec>`, repeatable: faults for every run (generator/mock/faults/spec.ts). */
  readonly fault?: readonly string[];
  /** `--schema <document>`: mock that document instead of MANTYX (./engine/document-command.ts). */
  readonly schema?: string;
  /** `--retry-ms <n>`: `retry:` at the start of every stream. */
  readonly retryMs?: string;
}

const FRAMES: Record<string, FrameShape> = {
  nested: "envelope",
  envelope: "envelope",
  flat: "flat",
  "flat-untyped": "flat-untyped",
};

/** `TOKEN=scope1,scope2` pairs as the server's OAuth tokens, or the first malformed one. */
function tokensOf(specs: readonly string[]): Record<string, string[]> | string {
  const out: Record<string, string[]> = {};
  for (const spec of specs) {
    const at = spec.indexOf("=");
    const token = at < 0 ? "" : spec.slice(0, at);
    if (token === "") return spec;
    out[token] = spec
      .slice(at + 1)
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  }
  return out;
}

/** The options as a server configuration, or the first problem as a usage message. */
function configOf(options: MockCommandOptions):
  | {
      port: number;
      edition: Edition;
      frames: FrameShape;
      tokens: Record<string, string[]>;
      scripts: Script[];
      maxBodyBytes: number;
      faults: string;
    }
  | string {
  const port = Number(options.port);
  if (!/^\d+$/.test(options.port) || port > 65535)
    return `--port wants a number from 0 to 65535 (0: any free port), got ${JSON.stringify(options.port)}`;
  const edition = options.older === true ? "older" : options.edition;
  if (!isEdition(edition)) return `--edition wants one of ${EDITIONS.join(", ")}, got ${JSON.stringify(edition)}`;
  const frames = FRAMES[options.frames];
  if (frames === undefined)
    return `--frames wants nested or flat (or flat-untyped: no type in the frame), got ${JSON.stringify(options.frames)}`;
  if (options.log !== undefined && options.log !== "json")
    return `--log wants json, got ${JSON.stringify(options.log)}`;
  if (options.workspace === "") return "--workspace wants a non-empty slug";
  if (options.apiKey === "") return "--api-key wants a non-empty key";
  const maxBodyBytes = Number(options.maxBodyBytes);
  if (!/^\d+$/.test(options.maxBodyBytes) || maxBodyBytes < 1)
    return `--max-body-bytes wants a positive number of bytes, got ${JSON.stringify(options.maxBodyBytes)}`;
  const tokens = tokensOf(options.token ?? []);
  if (typeof tokens === "string")
    return `--token wants TOKEN=scope1,scope2 (scopes may be empty: TOKEN=), got ${JSON.stringify(tokens.replace(/^(.{4}).*/s, "$1…"))}`;
  if (tokens[options.apiKey] !== undefined) return "--token names the API key; give OAuth tokens other names";
  const scripts: Script[] = [];
  for (const file of options.script ?? []) {
    try {
      scripts.push(loadScriptFile(file));
    } catch (error) {
      if (error instanceof ScriptError) return `--script ${error.message}`;
      throw error;
    }
  }
  const faults = (options.fault ?? []).join(",");
  try {
    parseFaultSpec(faults, "--fault", "run");
  } catch (error) {
    if (isFaultSpecError(error))
      return `${error.message}\n  (the README's fault table lists every fault; items are name[=value][@connections], separated by commas)`;
    throw error;
  }
  return {
    port,
    edition,
    frames,
    tokens: Object.keys(tokens).length === 0 ? { mantyx_at_readonly: ["runs:read"] } : tokens,
    scripts,
    maxBodyBytes,
    faults,
  };
}

/** Resolves to the exit code once the server has stopped (2 if it could not start). */
export async function runMock(options: MockCommandOptions, io: CliEnv, stop?: AbortSignal): Promise<number> {
  if (options.schema !== undefined)
    return (await import("./engine/document-command.js")).runDocumentMock(
      { ...options, schema: options.schema },
      io,
      stop,
    );
  const config = configOf(options);
  if (typeof config === "string") {
    io.stderr(`mantyx-wire mock: ${config}\n`);
    return 2;
  }
  let server: MockServer;
  try {
    server = await startMockServer({
      port: config.port,
      workspace: options.workspace,
      apiKey: options.apiKey,
      oauthTokens: config.tokens,
      edition: config.edition,
      frames: config.frames,
      scripts: config.scripts,
      maxBodyBytes: config.maxBodyBytes,
      faults: config.faults,
      ...(options.log === "json" ? { onRequest: (line) => io.stdout(`${JSON.stringify(line)}\n`) } : {}),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    io.stderr(
      `mantyx-wire mock: cannot listen on 127.0.0.1:${config.port} (${code}); pass --port <another> (0: any free port)\n`,
    );
    return 2;
  }
  io.stdout(`${server.url}\n`);
  if (options.quiet !== true) io.stdout(banner(server, config.frames));
  return serveUntilStopped(server, stop);
}

function banner(server: MockServer, frames: FrameShape): string {
  const base = `${server.url}/api/v1/workspaces/${server.workspace}`;
  const tokens = Object.entries(server.oauthTokens).map(
    ([t, s]) => `${t} (${s.length === 0 ? "no scopes" : s.join(" ")})`,
  );
  return `MANTYX mock server, edition ${server.edition}, ${frames === "envelope" ? "nested" : frames} frames
  workspace:    ${server.workspace}
  API key:      ${server.apiKey}  (every scope)
  OAuth tokens: ${tokens.join(", ")}
  scenarios:    metadata.scenario = ${server.scenarios.join(" | ")}
                (without one: a short answer, and one call of each client-resolved tool)

  curl -s -X POST ${base}/agent-runs \\
    -H 'Authorization: Bearer ${server.apiKey}' -H 'Content-Type: application/json' \\
    -d '{"systemPrompt":"Be brief.","prompt":"Hello"}'
  curl -sN ${base}/agent-runs/<runId>/stream -H 'Authorization: Bearer ${server.apiKey}'

Ctrl-C stops it.
`;
}
