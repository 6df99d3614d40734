/**
 * `mantyx-wire`: the command line.
 *
 *   mantyx-wire gen [--schema <path>] [--out <dir>] [--root <dir>] [--fixtures-copy <dir>]... [--check] [--debug]
 *   mantyx-wire diff <old> <new> [--format table|json] [--fail-on clients|readers|any] [--accept <file>] [--debug]
 *   mantyx-wire mock [--port <n>] [--workspace <slug>] [--api-key <key>] [--token <t=scopes>]… [--edition 2026-10|2026-09|older]
 *                    [--frames nested|flat] [--script <file>]… [--log json] [--max-body-bytes <n>] [--fault <spec>]… [--quiet]
 *   mantyx-wire mock --schema <document> [--port <n>] [--fault <spec>]… [--retry-ms <n>] [--log json] [--max-body-bytes <n>] [--quiet]
 *
 * Exit codes: 0 done (or up to date; diff: nothing breaks), 1 `--check`
 * found differences (diff: a breaking change), 2 the schema, the generator
 * or the arguments failed.
 *
 * Paths: `--schema` and `--out` are taken relative to the current
 * directory (or absolute); everything else is found from the schema file's
 * absolute location (the hand-written fixture cases: the folder `cases`
 * beside it, required; an empty folder opts out) or from this package (the
 * templates). The output does not depend on the current directory: headers
 * name the schema relative to the package that holds it (nearest
 * package.json; this repository's schema is `schema/openapi.yaml`, also when
 * read from node_modules/@mantyx/wire-types/), or by its file name outside
 * any package (generator/load/source-path.ts).
 */
/*
 * This module loads only commander and the package info: each command's
 * work is imported when that command runs, so `--help` starts fast.
 */
import { Command, CommanderError, Option } from "commander";
import { packageInfo } from "./load/package-info.js";
import type { Emitter } from "./model.js";

/** Where the CLI reads and writes; tests pass their own. */
export interface CliEnv {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  /** The emitters `gen` runs. Default: all of them (generator/emit/index.ts). */
  readonly emitters?: readonly Emitter[];
  /** Stops a running `mock` (besides SIGINT/SIGTERM). */
  readonly stop?: AbortSignal;
}

const processEnv: CliEnv = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  cwd: process.cwd(),
};

import type { GenOptions } from "./gen.js";
import type { MockCommandOptions } from "./mock/command.js";

interface DiffCommandOptions {
  readonly format: "table" | "json";
  readonly failOn: "clients" | "readers" | "any";
  readonly accept?: string;
  readonly debug?: boolean;
}

/** A repeatable option's values. */
const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Run the CLI with `args` (without `node` and the script). Resolves to the exit code. */
export async function runCli(args: readonly string[], io: CliEnv = processEnv): Promise<number> {
  let exitCode: number | undefined;
  const program = new Command()
    .name("mantyx-wire")
    .description(
      "Generate typed wire artefacts for the MANTYX agent-runs protocol from its OpenAPI 3.1 schema, or from any OpenAPI 3.0, 3.1 or 3.2 document.",
    )
    .version(packageInfo().version, "-V, --version", "print the generator version")
    .helpOption("-h, --help", "show help")
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride();
  program
    .command("gen")
    .description(
      "Generate the output folder from the schema (deletes and rewrites it), or check that it is up to date.",
    )
    .option(
      "--schema <path>",
      "the OpenAPI 3.0, 3.1 or 3.2 document (YAML or JSON); the hand-written fixture cases are read from cases/ beside it",
      "schema/openapi.yaml",
    )
    .option("--out <dir>", "the output folder; everything in it is owned by the generator", "generated")
    .option(
      "--root <dir>",
      "the folder $refs may read schema files from (default: the schema's folder); a $ref outside it is refused",
    )
    .option(
      "--runtime <specifier>",
      "where generated code imports the runtime contract from: a package specifier, or a path relative to --out starting with ./ or ../",
      "@mantyx/wire-types/codegen/v1",
    )
    .option(
      "--fixtures-copy <dir>",
      "also write the fixture suite (fixtures/ of --out) into <dir>, owned like --out and compared by --check; repeatable",
      (dir: string, dirs: string[] = []) => [...dirs, dir],
    )
    .option("--check", "write nothing; exit 1 and list each stale, missing or extra file if the folder is out of date")
    .option("--debug", "print stack traces with errors")
    .action(async (options: GenOptions) => {
      // Loaded only for `gen`: `--help` and `--version` start without the loader and emitters.
      exitCode = await (await import("./gen.js")).gen(options, io);
    });
  program
    .command("diff")
    .description(
      "Compare two schema documents for wire compatibility: each change is breaks-clients, breaks-readers, additive or info. Exit 1 on a breaking change that is not accepted.",
    )
    .argument("<old>", "the older schema document (YAML or JSON), e.g. schema/baseline/2026-09.yaml")
    .argument("<new>", "the newer schema document, e.g. schema/openapi.yaml")
    .addOption(
      new Option("--format <format>", "table for people, json for CI").choices(["table", "json"]).default("table"),
    )
    .addOption(
      new Option("--fail-on <direction>", "which breaking changes make the exit code 1")
        .choices(["clients", "readers", "any"])
        .default("any"),
    )
    .option(
      "--accept <file>",
      "the reviewed allow-list of breaking changes (pointer + direction + reason), e.g. schema/baseline/accepted-changes.json",
    )
    .option("--debug", "print stack traces with errors")
    .action(async (oldPath: string, newPath: string, options: DiffCommandOptions) => {
      // Loaded only for `diff`, like `gen`'s modules for `gen`.
      exitCode = await (await import("./diff/index.js")).runDiff(oldPath, newPath, options, io);
    });
  program
    .command("mock")
    .description(
      "Serve a mock on 127.0.0.1 until Ctrl-C, for SDK test suites; the first line printed is its URL. Without --schema: the MANTYX server (runs, sessions, scenarios). With --schema: any OpenAPI 3.x document, answered from its examples or schemas, its streams with faults.",
    )
    .option(
      "--schema <document>",
      "mock this OpenAPI document (YAML or JSON) instead of MANTYX: every operation, statuses by `Prefer: code=`, examples by `Prefer: example=`, streams generated; the MANTYX options below do not apply",
    )
    .option("--port <n>", "TCP port on 127.0.0.1 (0: any free port)", "8787")
    .option("--workspace <slug>", "the workspace slug the credentials belong to", "acme")
    .option("--api-key <key>", "the workspace API key (every scope)", "mantyx_test_key")
    .option(
      "--token <token=scopes>",
      "an OAuth access token and its comma-separated scopes, repeatable (default: mantyx_at_readonly=runs:read)",
      collect,
      [],
    )
    .addOption(
      new Option("--edition <edition>", "the protocol edition whose statuses and event shapes are sent")
        .choices(["2026-10", "2026-09", "older"])
        .default("2026-10"),
    )
    .addOption(
      new Option("--frames <shape>", "each event's data: the nested envelope, or flattened { seq, type, ...payload }")
        .choices(["nested", "flat", "flat-untyped"])
        .default("nested"),
    )
    .option(
      "--script <file>",
      "a script in the flow format (JSON or YAML), played by runs whose metadata.scenario is its file name without extension; repeatable",
      collect,
      [],
    )
    .addOption(
      new Option("--log <format>", "print one line per answered request (the credential redacted)").choices(["json"]),
    )
    .option(
      "--max-body-bytes <n>",
      "the largest request body read; larger ones are answered 413",
      String(16 * 1024 * 1024),
    )
    .option(
      "--fault <spec>",
      "faults for every run (with --schema: every stream), e.g. drop-after=3 or eol=crlf@*,chunk=3@* (repeatable; the mock's fault table)",
      collect,
      [],
    )
    .option("--retry-ms <n>", "with --schema: a `retry:` field of n ms at the start of every stream")
    .option("--quiet", "print the URL only")
    .option("--older", "the same as --edition older")
    .action(async (options: MockCommandOptions) => {
      // Loaded only for `mock`: node:http, the schema's routes and the scripted runs.
      exitCode = await (await import("./mock/command.js")).runMock(options, io, io.stop);
    });
  program
    .command("keywords")
    .description("Print the vendor keywords the generator reads (where each goes, what it means) and the naming rule.")
    .action(async () => {
      io.stdout((await import("./keywords/list.js")).keywordsText());
      exitCode = 0;
    });
  try {
    await program.parseAsync([...args], { from: "user" });
  } catch (error) {
    // Help and --version end with exit code 0; usage errors (already printed) with 2.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  if (exitCode === undefined) {
    io.stderr(program.helpInformation());
    return 2;
  }
  return exitCode;
}
