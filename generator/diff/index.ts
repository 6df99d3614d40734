/**
 * `mantyx-wire diff`: wire compatibility between two schema documents.
 * The command (`runDiff`), the comparison of two bundled documents
 * (`diffDocuments`), and the types of what they report.
 */
export { DIRECTIONS, type Change, type Direction, type Effect, type Side } from "./change.js";
export { diffDocuments } from "./diff-documents.js";
export { runDiff, type DiffIo, type DiffOptions } from "./command.js";
export {
  isAcceptedChangesError,
  readAcceptedChanges,
  AcceptedChangesError,
  type AcceptedChange,
} from "./accepted-changes.js";
export type { DiffReport, FailOn, ReportedChange } from "./report.js";
