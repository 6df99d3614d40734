#!/usr/bin/env node
// The `mantyx-wire` command. The generator is TypeScript run through tsx
// (a devDependency): `tsImport` loads it without a build step and without
// registering tsx for anything else in the process.
import { tsImport } from "tsx/esm/api";

const { runCli } = await tsImport("../generator/cli.ts", import.meta.url);
process.exitCode = await runCli(process.argv.slice(2));
