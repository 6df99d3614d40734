/**
 * Two bundled OpenAPI documents -> their wire-compatibility changes, sorted:
 * by direction (breaking first), then pointer, then kind. Only what an
 * operation reaches is compared: a component nothing sends or reads is not
 * on the wire.
 */
import { DIRECTIONS, type Change } from "./change.js";
import { compareOperations } from "./compare-operations.js";
import { compareSchema } from "./compare-schema.js";
import { child, DiffContext, Findings, isPlainObject } from "./context.js";

function protocolVersion(document: unknown): unknown {
  return isPlainObject(document) && isPlainObject(document.info) ? document.info["x-protocol-version"] : undefined;
}

function byOrder(a: Change, b: Change): number {
  const direction = DIRECTIONS.indexOf(a.direction) - DIRECTIONS.indexOf(b.direction);
  if (direction !== 0) return direction;
  if (a.pointer !== b.pointer) return a.pointer < b.pointer ? -1 : 1;
  return a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0;
}

export function diffDocuments(oldDocument: unknown, newDocument: unknown): Change[] {
  const findings = new Findings();
  const context = new DiffContext(
    oldDocument,
    newDocument,
    "operation",
    "info",
    false,
    findings,
    new Set(),
    compareSchema,
  );
  const before = protocolVersion(oldDocument);
  const after = protocolVersion(newDocument);
  if (before !== after)
    context.report("protocol-version-changed", "info", child("", "info", "x-protocol-version"), {
      old: before,
      new: after,
    });
  compareOperations(context);
  return findings
    .list()
    .map(({ inverted: _inverted, ...change }) => change)
    .sort(byOrder);
}
