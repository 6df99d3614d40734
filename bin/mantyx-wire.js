#!/usr/bin/env node
// The `mantyx-wire` command. The generator is TypeScript run through tsx
// (a dependency): `tsImport` loads it without a build step and without
// registering tsx for anything else in the process.
import { tsImport } from "tsx/esm/api";

const { runCli } = await tsImport("../generator/cli.ts", import.meta.url);
// Paths given on the command line are relative to the current directory;
// the hand-written cases are read beside the schema file (generator/cli.ts).
process.exitCode = await runCli(process.argv.slice(2));
