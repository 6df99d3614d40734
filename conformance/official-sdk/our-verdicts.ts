/**
 * Our verdict on terminal events, for terminal_verdicts.py: reads a JSON
 * array of events `{ type, data }` on stdin and prints the array of
 * `runOutcome` (mantyx/outcome.ts) for them, in order.
 */
import { runOutcome } from "../../mantyx/outcome.js";

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const events = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Array<{ type: string; data?: unknown }>;
process.stdout.write(`${JSON.stringify(events.map((e) => runOutcome(e) ?? null))}\n`);
