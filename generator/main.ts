/**
 * The `mantyx-wire` command's entry: the published bin is this file bundled
 * into `dist/mantyx-wire.js` (generator/scripts/build.mjs), plain
 * JavaScript, no TypeScript loader at run time. Paths given on the command
 * line are relative to the current directory.
 */
import { runCli } from "./cli.js";

process.exitCode = await runCli(process.argv.slice(2));
