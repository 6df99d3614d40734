/** The three JSON Patch (RFC 6902) operations the doctored pairs need, applied to a copy. */
import { parsePointer } from "../../../generator/load/json-pointer.js";

export type PatchOperation = { op: "add" | "replace"; path: string; value: unknown } | { op: "remove"; path: string };

export function applyPatch<T>(document: T, operations: readonly PatchOperation[]): T {
  const copy = structuredClone(document) as unknown;
  for (const operation of operations) {
    const segments = parsePointer(operation.path);
    const last = segments.pop();
    if (last === undefined) throw new Error(`cannot patch the root: ${operation.path}`);
    let parent = copy as Record<string, unknown> | unknown[];
    for (const segment of segments) {
      const next = (parent as Record<string, unknown>)[segment];
      if (typeof next !== "object" || next === null) throw new Error(`no such path: ${operation.path}`);
      parent = next as Record<string, unknown> | unknown[];
    }
    if (Array.isArray(parent)) {
      const index = last === "-" ? parent.length : Number(last);
      if (!Number.isInteger(index) || index < 0 || index > parent.length)
        throw new Error(`bad array index: ${operation.path}`);
      if (operation.op === "add") parent.splice(index, 0, structuredClone(operation.value));
      else if (operation.op === "replace") parent[index] = structuredClone(operation.value);
      else parent.splice(index, 1);
    } else {
      if (operation.op !== "add" && !Object.hasOwn(parent, last)) throw new Error(`no such member: ${operation.path}`);
      if (operation.op === "remove") delete parent[last];
      else parent[last] = structuredClone(operation.value);
    }
  }
  return copy as T;
}
