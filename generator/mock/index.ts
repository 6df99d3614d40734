/**
 * `mantyx-wire mock`: the mock MANTYX server (Node only), shipped in the
 * generator package as a dev tool for SDK test suites; this repository's
 * tests and demo use it too.
 */
export {
  startMockServer,
  type MockServer,
  type MockServerOptions,
  type RecordedRequest,
  type StreamConnection,
} from "./server.js";
export { frameOf, MockRun, type FrameShape, type LogEntry } from "./run-state.js";
