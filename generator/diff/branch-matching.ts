/**
 * Which branch of an old `oneOf`/`anyOf`/`allOf` is which branch of the new
 * one, when there is no discriminator to say it: the same `$ref` target,
 * then the same schema, then the same shape (types, or a constant), then
 * what is left by position when both sides have as many left.
 */
import { canonicalJson } from "../load/canonical-json.js";
import { isPlainObject, refTarget, type DiffContext, type SchemaNode } from "./context.js";
import { typeListOf } from "./schema-shape.js";

export interface BranchMatch {
  readonly pairs: Array<readonly [SchemaNode, SchemaNode]>;
  readonly added: SchemaNode[];
  readonly removed: SchemaNode[];
}

function shape(schema: unknown): string {
  if (typeof schema === "boolean") return `boolean-schema:${schema}`;
  if (!isPlainObject(schema)) return "other";
  if (Object.hasOwn(schema, "const")) return `const:${canonicalJson(schema.const)}`;
  const types = typeListOf(schema);
  return `type:${types === undefined ? "any" : [...types].sort().join(",")}`;
}

export function matchBranches(
  context: DiffContext,
  old: readonly SchemaNode[],
  next: readonly SchemaNode[],
): BranchMatch {
  const leftOld = [...old];
  const leftNew = [...next];
  const pairs: Array<readonly [SchemaNode, SchemaNode]> = [];
  const pass = (key: (node: SchemaNode, document: "old" | "new") => string | undefined): void => {
    for (let i = 0; i < leftOld.length; ) {
      const oldKey = key(leftOld[i]!, "old");
      const j = oldKey === undefined ? -1 : leftNew.findIndex((node) => key(node, "new") === oldKey);
      if (j < 0) {
        i++;
        continue;
      }
      pairs.push([leftOld[i]!, leftNew[j]!]);
      leftOld.splice(i, 1);
      leftNew.splice(j, 1);
    }
  };
  const resolved = (node: SchemaNode, document: "old" | "new"): unknown =>
    (document === "old" ? context.derefOld(node) : context.derefNew(node)).schema;
  pass((node) => refTarget(node.schema));
  pass((node, document) => canonicalJson(resolved(node, document)));
  pass((node, document) => shape(resolved(node, document)));
  if (leftOld.length === leftNew.length) {
    leftOld.forEach((node, index) => {
      pairs.push([node, leftNew[index]!]);
    });
    return { pairs, added: [], removed: [] };
  }
  return { pairs, added: leftNew, removed: leftOld };
}
