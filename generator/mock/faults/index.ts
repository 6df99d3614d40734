/**
 * The mock's fault layer: parse a fault spec (./spec.ts, the names in
 * ./catalog.ts), plan one stream connection from the specs that apply to it
 * (./plan.ts), serve it (./connection.ts, ./socket-writer.ts), and change
 * a run's stored events (./run-faults.ts). The server only collects the
 * specs: from `--fault`, a script, the create-run request, the stream
 * request and the test queue.
 */
export { FAULT_CATALOG, type FaultEntry, type FaultName, type FaultScope } from "./catalog.js";
export {
  recordEnd,
  resumePoint,
  serveStream,
  type ConnectionEnd,
  type ConnectionOutcome,
  type ServeStreamOptions,
  type StreamedRun,
} from "./connection.js";
export { drawMix } from "./mix.js";
export { planConnection, type ConnectionPlan, type PlanLayer } from "./plan.js";
export { MALFORMED_DATA, RunFaults, UNKNOWN_EVENT_TYPE, type StoredEntry } from "./run-faults.js";
export { connectionSpecOf, faultSpecOfRequest, faultTextOfRequest, FAULT_HEADER, FAULT_QUERY } from "./request.js";
export {
  FaultSpecError,
  isFaultSpecError,
  NO_FAULTS,
  parseFaultSpec,
  type ConnectionFault,
  type Connections,
  type FaultSpec,
  type Range,
  type RunFault,
  type SpecContext,
} from "./spec.js";
