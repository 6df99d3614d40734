/**
 * The receive-level worker (./receive-thread.ts): compiles the receive
 * level of the model it is given, sends its module's text, then judges each
 * batch of fixture cases it is sent, answering in order.
 */
import { parentPort, workerData } from "node:worker_threads";
import { levelReceiveJudge } from "../fixtures/receive-judge.js";
import { levelModuleText } from "./level-module-text.js";
import { toThreadError, type FromWorker, type JudgeBatch, type ReceiveThreadInput } from "./receive-thread.js";

const { model, runtime } = workerData as ReceiveThreadInput;
const port = parentPort!;
const post = (message: FromWorker): void => port.postMessage(message);

try {
  post({ kind: "module", text: levelModuleText(model, "receive", runtime) });
  const judge = levelReceiveJudge(model);
  port.on("message", ({ items }: JudgeBatch) => {
    try {
      post({ kind: "verdicts", verdicts: items.map(([pointer, data]) => judge.ask(pointer, data)()) });
    } catch (error) {
      post({ kind: "failed", error: toThreadError(error) });
    }
  });
} catch (error) {
  post({ kind: "failed", error: toThreadError(error) });
}
