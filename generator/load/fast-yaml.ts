/**
 * A fast first reading of a YAML file. The `yaml` package (./source-file.ts)
 * keeps every node with its position, which the loader needs only to point
 * at a problem; building that tree was the largest single cost of `gen`
 * (seconds for schema/openapi.yaml on a cold process). js-yaml reads the same
 * YAML 1.2 core schema into plain data about ten times faster, and the tree is
 * built later, only when a position is asked for (`SourceFile.locate`).
 *
 * The two parsers must agree on the data, so the fast reading is used only
 * where they do, and everything else takes the `yaml` path, with its typed
 * errors: any js-yaml error (syntax, a duplicate key, an unknown tag, more
 * than one document), aliases (the `yaml` path counts their expansions
 * against alias bombs), an empty document, and plain scalars the two
 * resolve differently (`0b11`, `-0x1`, `+0o1`, `.5e-3`: js-yaml's extensions of
 * the core schema), found by a conservative look at the text.
 */
import jsyaml from "js-yaml";

/** A plain scalar starting with a sign or a radix prefix, or with a dot before a digit: where the parsers may disagree. */
const UNCERTAIN_SCALAR = /(?:^|[\s:[{,])[-+]?(?:0[box]|\.[0-9])/m;

/** The data of `text`, or `undefined` when the `yaml` path must read it. */
export function fastYamlData(text: string): unknown {
  if (UNCERTAIN_SCALAR.test(text)) return undefined;
  let data: unknown;
  try {
    data = jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
  if (data === undefined || hasSharedNodes(data)) return undefined;
  return data;
}

/** Whether one object or array is reached twice: what a YAML alias of a collection makes. */
function hasSharedNodes(root: unknown): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== "object") continue;
    if (seen.has(value)) return true;
    seen.add(value);
    for (const child of Object.values(value)) stack.push(child);
  }
  return false;
}
