/**
 * The names of one document's components in generated code, collision-free.
 *
 * Each component has a natural name: its TypeScript type `typeName(name)`
 * (types/names.ts), its validators `validate<Type>` (+ `AllErrors`,
 * `Receive`) in `validators/<kebab-type>.js` (validators/names.ts). Two
 * components can share one: `Foo-Bar` and `FooBar` are both the type
 * `FooBar`; `user` and `User` are two types but both `validators/user.js`,
 * one file on a case-insensitive file system (macOS, Windows); `Index` would
 * overwrite the generator's `validators/index.js`; the all-errors validator
 * of a request body `Foo` is `validateFooAllErrors`, the validator of a
 * component `FooAllErrors`.
 *
 * The rule (deterministic, independent of the order of the document):
 *
 * 1. A component whose natural names no other component shares (types and
 *    validator exports compared exactly, file names ignoring case) keeps
 *    them. So does every component of a document without such a pair.
 * 2. The components that share one are taken in order: first those whose
 *    name is its own type name (`FooBar` before `Foo-Bar`), then by the
 *    name's UTF-16 code units. Each keeps its natural names where still
 *    free; else its type becomes `<Type>_2` (`_3`, ...: the first free one,
 *    its validators following it), and its file `<file>-2` (`-3`, ...).
 *
 * Each renamed component gets one warning (`gen`'s diagnostics) naming the
 * component that kept the name.
 */
import type { SchemaContent } from "../model.js";
import { typeName } from "./types/names.js";
import { kebabCase } from "./validators/names.js";
import { requestBodyComponents } from "./validators/request-bodies.js";
import { receivedComponents } from "./validators/received-components.js";

/** Files of the generator's own in validators/ (compared ignoring case). */
const GENERATOR_FILES: ReadonlySet<string> = new Set(["index"]);

export interface RenamedComponent {
  readonly component: string;
  /** The names it was given. */
  readonly type: string;
  readonly file: string;
  /** Its natural names, and the component that has them (undefined: a file of the generator's own). */
  readonly naturalType: string;
  readonly naturalFile: string;
  readonly holder: string | undefined;
}

export interface ComponentNames {
  /** The TypeScript type of `component` in types.ts. */
  type(component: string): string;
  /** Its strict validator's export (`validate<Type>`). */
  validatorName(component: string): string;
  /** Its all-errors build's export. */
  allErrorsName(component: string): string;
  /** Its receive-level build's export. */
  receiveName(component: string): string;
  /** Its strict validator's module in validators/, without `.js`. */
  validatorFile(component: string): string;
  /** Its all-errors build's module. */
  allErrorsFile(component: string): string;
  /** Its receive-level build's module. */
  receiveFile(component: string): string;
  /** The components not named by the natural rule, in the order above. */
  readonly renamed: readonly RenamedComponent[];
}

/**
 * The names of `model`'s components. A pure function of the model:
 * `generate` computes it once per run and hands it to the emitters as
 * `context.names` (the level thread computes its own copy: the same names).
 */
export function componentNames(model: SchemaContent): ComponentNames {
  return allocateComponentNames(
    Object.keys(model.schemas),
    requestBodyComponents(model.document),
    receivedComponents(model.document),
  );
}

/** The file (without `.js`) of the validator of type `type`: validators/names.ts `validatorFile`'s rule. */
function fileOfType(type: string): string {
  return kebabCase(type).replace(/\$/g, "-");
}

/**
 * The names of `components`, of which `bodies` get an all-errors validator
 * and `received` a receive-level one (their export names must be free too).
 */
export function allocateComponentNames(
  components: readonly string[],
  bodies: readonly string[] = [],
  received: readonly string[] = [],
): ComponentNames {
  const isBody = new Set(bodies);
  const isReceived = new Set(received);
  const exportsOf = (component: string, type: string): string[] => [
    `validate${type}`,
    ...(isBody.has(component) ? [`validate${type}AllErrors`] : []),
    ...(isReceived.has(component) ? [`validate${type}Receive`] : []),
  ];

  // Pass 1: how many components claim each natural name.
  const natural = new Map(components.map((c) => [c, { type: typeName(c), file: fileOfType(typeName(c)) }]));
  const count = new Map<string, number>();
  const keysOf = (component: string, type: string, file: string): string[] => [
    `t:${type}`,
    ...exportsOf(component, type).map((e) => `e:${e}`),
    `f:${file.toLowerCase()}`,
  ];
  const add = (key: string): void => void count.set(key, (count.get(key) ?? 0) + 1);
  for (const [c, n] of natural) for (const key of keysOf(c, n.type, n.file)) add(key);
  const shares = (c: string): boolean => {
    const n = natural.get(c)!;
    return GENERATOR_FILES.has(n.file.toLowerCase()) || keysOf(c, n.type, n.file).some((key) => count.get(key)! > 1);
  };

  // Pass 2: who shares nothing keeps its names.
  const types = new Map<string, string>();
  const files = new Map<string, string>();
  const holders = new Map<string, string>();
  const take = (c: string, type: string, file: string): void => {
    types.set(c, type);
    files.set(c, file);
    for (const key of keysOf(c, type, file)) holders.set(key, c);
  };
  const contested: string[] = [];
  for (const c of components) {
    if (shares(c)) contested.push(c);
    else take(c, natural.get(c)!.type, natural.get(c)!.file);
  }

  // Pass 3: the others, in a fixed order, each with the first free names.
  const own = (c: string): number => (natural.get(c)!.type === c ? 0 : 1);
  contested.sort((a, b) => own(a) - own(b) || (a < b ? -1 : a > b ? 1 : 0));
  const renamed: RenamedComponent[] = [];
  for (const c of contested) {
    const n = natural.get(c)!;
    const typeFree = (type: string): boolean =>
      !holders.has(`t:${type}`) && exportsOf(c, type).every((e) => !holders.has(`e:${e}`));
    let type = n.type;
    for (let k = 2; !typeFree(type); k++) type = `${n.type}_${k}`;
    const base = type === n.type ? n.file : fileOfType(type);
    const fileFree = (file: string): boolean =>
      !holders.has(`f:${file.toLowerCase()}`) && !GENERATOR_FILES.has(file.toLowerCase());
    let file = base;
    for (let k = 2; !fileFree(file); k++) file = `${base}-${k}`;
    if (type !== n.type || file !== n.file) {
      const holder = [`t:${n.type}`, ...exportsOf(c, n.type).map((e) => `e:${e}`), `f:${n.file.toLowerCase()}`]
        .map((key) => holders.get(key))
        .find((h) => h !== undefined);
      renamed.push({ component: c, type, file, naturalType: n.type, naturalFile: n.file, holder });
    }
    take(c, type, file);
  }

  const typeOf = (component: string): string => {
    const type = types.get(component);
    if (type === undefined) throw new Error(`No component ${JSON.stringify(component)} in this document.`);
    return type;
  };
  const fileOf = (component: string): string => {
    typeOf(component);
    return files.get(component)!;
  };
  return {
    type: typeOf,
    validatorName: (c) => `validate${typeOf(c)}`,
    allErrorsName: (c) => `validate${typeOf(c)}AllErrors`,
    receiveName: (c) => `validate${typeOf(c)}Receive`,
    validatorFile: fileOf,
    allErrorsFile: (c) => `${fileOf(c)}.all-errors`,
    receiveFile: (c) => `${fileOf(c)}.receive`,
    renamed,
  };
}
