/**
 * The `mantyx-wire` command's entry: the published bin is this file bundled
 * into `dist/mantyx-wire.js` (generator/scripts/build.mjs), plain
 * JavaScript, no TypeScript loader at run time. Paths given on the command
 * line are relative to the current directory.
 */
import { runCli } from "./cli.js";
import { tuneJitForGen } from "./jit.js";

const args = process.argv.slice(2);
// The process is this one `gen` run (./jit.ts); commander takes no option before the command.
if (args[0] === "gen") tuneJitForGen();
process.exitCode = await runCli(args);
