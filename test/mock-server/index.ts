/** Mock MANTYX server for tests and the demo (Node only: it lives under test/, never in runtime/). */
export { startMockServer, type MockServer, type MockServerOptions, type RecordedRequest, type StreamConnection, type StreamFault } from "./server.js";
export { frameOf, MockRun, type FrameShape, type LogEntry } from "./run-state.js";
export { echoForms, startEchoServer, type EchoMode, type EchoServer } from "./echo-server.js";
