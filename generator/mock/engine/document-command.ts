/**
 * `mantyx-wire mock --schema <document>`: loads the document with the
 * generator's loader (a document `gen` refuses is refused here, with the
 * same file:line message, exit 2), starts the document mock
 * (./document-mock.ts) on 127.0.0.1 and serves until SIGINT/SIGTERM (or
 * `stop`). The first line of stdout is the URL alone; then, unless
 * `--quiet`, the operations served and how to pick answers.
 */
import type { OpenAPIObject } from "openapi3-ts/oas31";
import type { CliEnv } from "../../cli.js";
import { formatError } from "../../errors.js";
import { loadSchema } from "../../load/index.js";
import { isFaultSpecError, parseFaultSpec } from "../faults/index.js";
import { startDocumentMock, type DocumentMock } from "./document-mock.js";
import { serveUntilStopped } from "./until-stopped.js";

export interface DocumentMockCommandOptions {
  readonly schema: string;
  readonly port: string;
  readonly maxBodyBytes: string;
  readonly log?: string;
  readonly quiet?: boolean;
  readonly fault?: readonly string[];
  readonly retryMs?: string;
}

/** Resolves to the exit code once the server has stopped (2 if it could not start). */
export async function runDocumentMock(
  options: DocumentMockCommandOptions,
  io: CliEnv,
  stop?: AbortSignal,
): Promise<number> {
  const fail = (message: string): number => {
    io.stderr(`mantyx-wire mock: ${message}\n`);
    return 2;
  };
  const port = Number(options.port);
  if (!/^\d+$/.test(options.port) || port > 65535)
    return fail(`--port wants a number from 0 to 65535 (0: any free port), got ${JSON.stringify(options.port)}`);
  const maxBodyBytes = Number(options.maxBodyBytes);
  if (!/^\d+$/.test(options.maxBodyBytes) || maxBodyBytes < 1)
    return fail(`--max-body-bytes wants a positive number of bytes, got ${JSON.stringify(options.maxBodyBytes)}`);
  if (options.log !== undefined && options.log !== "json")
    return fail(`--log wants json, got ${JSON.stringify(options.log)}`);
  const retryMs = options.retryMs === undefined ? undefined : Number(options.retryMs);
  if (options.retryMs !== undefined && !/^\d{1,9}$/.test(options.retryMs))
    return fail(`--retry-ms wants a whole number of milliseconds, got ${JSON.stringify(options.retryMs)}`);
  const faults = (options.fault ?? []).join(",");
  try {
    parseFaultSpec(faults, "--fault", "run");
  } catch (error) {
    if (isFaultSpecError(error))
      return fail(
        `${error.message}\n  (items are name[=value][@connections], separated by commas; \`mantyx-wire mock --help\` and the mock's documentation list every fault)`,
      );
    throw error;
  }
  let document: OpenAPIObject;
  try {
    document = (await loadSchema(options.schema, { cwd: io.cwd })).document;
  } catch (error) {
    io.stderr(`${formatError(error)}\n`);
    return 2;
  }
  let server: DocumentMock;
  try {
    server = await startDocumentMock({
      document,
      port,
      maxBodyBytes,
      faults,
      ...(retryMs === undefined ? {} : { retryMs }),
      ...(options.log === "json" ? { onRequest: (line) => io.stdout(`${JSON.stringify(line)}\n`) } : {}),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return fail(`cannot listen on 127.0.0.1:${port} (${code}); pass --port <another> (0: any free port)`);
  }
  io.stdout(`${server.url}\n`);
  if (options.quiet !== true) io.stdout(banner(server, options.schema, faults));
  return serveUntilStopped(server, stop);
}

function banner(server: DocumentMock, schema: string, faults: string): string {
  return `Mock of ${schema}: ${server.operations.length} operation${server.operations.length === 1 ? "" : "s"}${faults === "" ? "" : `, faults ${faults} on every stream`}
${server.operations.map((o) => `  ${o}`).join("\n")}

  Answers: the lowest 2xx, from its example or generated from its schema.
  Another one: Prefer: code=404 | example=<name> | dynamic=true (or X-Mock-Status, X-Mock-Example).
  Stream faults: X-Mock-Fault: drop-after=2 (resume with Last-Event-ID), eol=crlf, chunk=3, ...

Ctrl-C stops it.
`;
}
