/**
 * The Path Items of a bundled document as the operations they hold. A Path
 * Item may be a `$ref` (in 3.1 and 3.2, usually to `components.pathItems`):
 * its operations are the referenced item's, with the referring object's own
 * fields laid over them (OpenAPI leaves a clash undefined; the nearer one
 * wins here). Every reader of operations goes through this, so an operation
 * behind a reference is never silently missing from one artefact.
 */
import { getAtPointer, isPlainObject, parseRefFragment, type Pointer } from "./json-pointer.js";

export interface ResolvedPathItem {
  /** The path template (`/pets/{petId}`). */
  readonly path: string;
  /** The item's fields, the reference followed. */
  readonly item: Readonly<Record<string, unknown>>;
  /** Where each field of `item` sits in the document: the referring object's own, else the referenced item's. */
  pointerOf(field: string): Pointer;
}

/** Every Path Item under `paths` (document order), its `$ref` chain followed through the document. */
export function pathItemsOf(document: unknown): ResolvedPathItem[] {
  const paths = isPlainObject(document) && isPlainObject(document.paths) ? document.paths : {};
  const out: ResolvedPathItem[] = [];
  for (const [path, raw] of Object.entries(paths)) {
    if (!isPlainObject(raw)) continue;
    const layers: Array<{ value: Record<string, unknown>; at: Pointer }> = [{ value: raw, at: ["paths", path] }];
    // The loader has already refused dangling and cyclic references; the bound only guards a hand-built document.
    for (let i = 0; i < 16; i++) {
      const top = layers[layers.length - 1]!.value;
      const segments = typeof top.$ref === "string" ? parseRefFragment(top.$ref) : undefined;
      const target = segments === undefined ? undefined : getAtPointer(document, segments);
      if (segments === undefined || !isPlainObject(target)) break;
      layers.push({ value: target, at: segments });
    }
    const item: Record<string, unknown> = {};
    const origin = new Map<string, Pointer>();
    for (const { value, at } of layers.reverse()) {
      for (const [field, v] of Object.entries(value)) {
        if (field === "$ref") continue;
        item[field] = v;
        origin.set(field, [...at, field]);
      }
    }
    out.push({ path, item, pointerOf: (field) => origin.get(field) ?? ["paths", path, field] });
  }
  return out;
}
