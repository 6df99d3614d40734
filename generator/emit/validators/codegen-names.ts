/**
 * A faster `names` for ajv's code generator (ajv 8, compile/codegen), with
 * the same counts.
 *
 * ajv's optimizer (`code.optimize`, which the emitted validators are built
 * with) first asks the root node of each compiled function for `names`: how
 * often each variable is used. ajv computes it bottom up, every block node
 * making a fresh object and copying in every count of every child, so each
 * count is copied once per enclosing block: a tenth of the validators'
 * compile time. Here the counts are added into one object in one walk of
 * the same nodes. The optimizer reads the counts only by name, so the code
 * it leaves, and the emitted validators, are byte for byte the same
 * (test/generator/codegen-names.test.ts compiles every level both ways).
 *
 * ajv's node classes are not exported; they are reached through a CodeGen's
 * own nodes, by shape, never by class name (a bundler renames classes:
 * esbuild makes ajv's `class If` `_If`, which turned this off in the
 * published bin). Before it stays installed, the new counts are checked
 * against ajv's on a sample of every node kind; anything unexpected leaves
 * ajv as it is.
 *
 * Issue 25 asked for its removal; on GitHub's REST description it saves 40%
 * of the strict level's compile, so it stays until ajv takes the change
 * (docs/proposals/ajv-codegen-names.md).
 */
import { CodeGen, _ } from "ajv/dist/compile/codegen/index.js";
import { _CodeOrName } from "ajv/dist/compile/codegen/code.js";
import { ValueScope } from "ajv/dist/compile/codegen/scope.js";

type Counts = Record<string, number>;
interface CodeNode {
  readonly names: Counts;
  readonly nodes?: CodeNode[];
}
// biome-ignore lint/suspicious/noExplicitAny: ajv's private node classes take constructor arguments of their own
type NodeClass = abstract new (...args: any[]) => object;

let installed = false;
let original: { readonly target: object; readonly descriptor: PropertyDescriptor }[] = [];

/** Installs the faster `names` (once per process); `false` when ajv's classes are not as expected. */
export function useFastCodegenNames(): boolean {
  if (installed) return true;
  const classes = nodeClasses();
  if (classes === undefined) return false;
  const { parent, ifNode, forLoop, forRange, forIter, tryNode } = classes;
  const addInto = (into: Counts, from: Counts): void => {
    for (const n in from) into[n] = (into[n] || 0) + (from[n] || 0);
  };
  const addExpr = (into: Counts, expr: unknown): void => {
    if (expr instanceof _CodeOrName) addInto(into, (expr as unknown as CodeNode).names);
  };
  // The same sums as ajv's getters (ParentNode: its nodes; If: and its condition and else; the loops: their heads; Try: catch and finally).
  const collect = (node: CodeNode, into: Counts): void => {
    if (!(node instanceof parent)) {
      addInto(into, node.names);
      return;
    }
    for (const child of node.nodes!) collect(child, into);
    const n = node as unknown as Record<string, unknown>;
    if (node instanceof ifNode) {
      addExpr(into, n["condition"]);
      if (n["else"]) collect(n["else"] as CodeNode, into);
    } else if (node instanceof forLoop) addInto(into, (n["iteration"] as CodeNode).names);
    else if (node instanceof forRange) {
      addExpr(into, n["from"]);
      addExpr(into, n["to"]);
    } else if (node instanceof forIter) addInto(into, (n["iterable"] as CodeNode).names);
    else if (node instanceof tryNode) {
      if (n["catch"]) collect(n["catch"] as CodeNode, into);
      if (n["finally"]) collect(n["finally"] as CodeNode, into);
    }
  };
  const names = {
    configurable: true,
    get(this: CodeNode): Counts {
      const into: Counts = {};
      collect(this, into);
      return into;
    },
  };
  const expected = JSON.stringify(sortedCounts(classes.sample.names));
  original = [];
  for (const cls of [parent, ifNode, forLoop, forRange, forIter, tryNode]) {
    const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, "names");
    if (descriptor !== undefined) original.push({ target: cls.prototype, descriptor });
    Object.defineProperty(cls.prototype, "names", names);
  }
  installed = true;
  if (JSON.stringify(sortedCounts(classes.sample.names)) !== expected) {
    useAjvCodegenNames();
    return false;
  }
  return true;
}

function sortedCounts(counts: Counts): Array<[string, number]> {
  return Object.entries(counts)
    .filter(([, n]) => n !== 0)
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

/** Puts ajv's own `names` back (for the test that compares the two). */
export function useAjvCodegenNames(): void {
  for (const { target, descriptor } of original) Object.defineProperty(target, "names", descriptor);
  original = [];
  installed = false;
}

/**
 * ajv's node classes, from the nodes a CodeGen makes, and that CodeGen's
 * root (a sample using every kind, its counts checked before and after);
 * undefined when they are not shaped as this file knows: each a distinct
 * subclass of the parent class, each with its own `names` getter.
 */
function nodeClasses():
  | {
      parent: NodeClass;
      ifNode: NodeClass;
      forLoop: NodeClass;
      forRange: NodeClass;
      forIter: NodeClass;
      tryNode: NodeClass;
      sample: CodeNode;
    }
  | undefined {
  try {
    const gen = new CodeGen(new ValueScope({ scope: {} }), {});
    const nodes = gen as unknown as { readonly _root: CodeNode; readonly _currNode: CodeNode };
    const made: CodeNode[] = [];
    const current = (): CodeNode => nodes._currNode;
    const a = gen.name("a");
    const b = gen.let("b", _`${a} + 1`);
    gen.if(
      _`${a} > ${b}`,
      () => {
        made.push(current());
        gen.assign(a, b);
      },
      () => gen.assign(b, a),
    );
    gen.for(_`;${a};`, () => {
      made.push(current());
      gen.assign(b, a);
    });
    gen.forRange("i", a, b, () => made.push(current()));
    gen.forOf("x", _`${a}`, () => made.push(current()));
    gen.try(
      () => {
        made.push(current());
        gen.assign(a, b);
      },
      () => gen.assign(b, a),
      () => gen.assign(a, _`${b} * 2`),
    );
    const [ifNode, forLoop, forRange, forIter, tryNode] = made.map((node) => node.constructor as NodeClass);
    const parent = Object.getPrototypeOf(nodes._root.constructor.prototype).constructor as NodeClass;
    const kinds = [ifNode, forLoop, forRange, forIter, tryNode];
    if (
      made.length !== 5 ||
      new Set(kinds).size !== 5 ||
      !kinds.every((cls) => cls !== undefined && cls.prototype instanceof parent)
    )
      return undefined;
    const ownGetter = (cls: NodeClass): boolean =>
      typeof Object.getOwnPropertyDescriptor(cls.prototype, "names")?.get === "function";
    if (![parent, ...kinds].every((cls) => ownGetter(cls!))) return undefined;
    return {
      parent,
      ifNode: ifNode!,
      forLoop: forLoop!,
      forRange: forRange!,
      forIter: forIter!,
      tryNode: tryNode!,
      sample: nodes._root,
    };
  } catch {
    return undefined;
  }
}
