/**
 * The client method name of each operation.
 *
 * Rule (documented in schema/CONVENTIONS.md, "Names"):
 * 1. An `operationId` that is a JavaScript identifier is the name, as is.
 * 2. Any other `operationId` (`get-stations`, `stations.list`, `2fa setup`)
 *    is split into words at every character an identifier cannot hold and
 *    joined in camelCase (`getStations`, `stationsList`, `_2faSetup`: a
 *    leading digit gets a `_`).
 * 3. Without an `operationId`: the HTTP method, then each path segment in
 *    PascalCase, a `{param}` segment as `By` + the parameter
 *    (`GET /stations/{stationId}/departures` -> `getStationsByStationIdDepartures`,
 *    `GET /` -> `get`).
 * `constructor` (which would replace the class's constructor), `__proto__`
 * (which would set the operation table's prototype) and `then` (which would
 * make the client a thenable: `await`ing it, or returning it from an async
 * function, would call the operation) get a `_`.
 * Two operations with one name get two (`methodNames`), with a warning.
 * An operation's function in operations.ts is named like its method, but a
 * reserved word (`delete`) or a name the module imports (`operation`) gets
 * `_`s until it is free (`delete_`): a method may be named `delete`, a
 * `const` may not.
 */
import { formatPointer } from "../load/json-pointer.js";
import { bindingName, IDENTIFIER, RESERVED_BINDINGS } from "./identifier.js";
import type { OperationEntry } from "./operations.js";

/** The words of `text`: split at every run of characters an identifier cannot hold (case inside a word is kept). */
function words(text: string): string[] {
  return text.split(/[^A-Za-z0-9_$]+/).filter((word) => word !== "");
}

const upperFirst = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

function camel(parts: readonly string[]): string {
  const joined = parts
    .map((part, i) => (i === 0 ? part.charAt(0).toLowerCase() + part.slice(1) : upperFirst(part)))
    .join("");
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

/** Method names an object cannot carry as operations (the rule above). */
const METHOD_NAMES_TAKEN = new Set(["constructor", "__proto__", "then"]);

/** The method name of one operation, by the rule above (without the collision check). */
export function methodNameOf(entry: Pick<OperationEntry, "method" | "path" | "op">): string {
  const id = entry.op.operationId;
  let name: string;
  if (typeof id === "string" && IDENTIFIER.test(id)) name = id;
  else if (typeof id === "string" && words(id).length > 0) name = camel(words(id));
  else {
    const segments = entry.path.split("/").filter((segment) => segment !== "");
    const parts = segments.flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment)?.[1];
      return param !== undefined ? ["By", ...words(param).map(upperFirst)] : words(segment).map(upperFirst);
    });
    name = camel([entry.method, ...parts]);
  }
  return METHOD_NAMES_TAKEN.has(name) ? `${name}_` : name;
}

/** Where an operation is in the bundled document (its `operationId` when it has one). */
export function operationPointer(entry: Pick<OperationEntry, "at" | "op">): string {
  return formatPointer(entry.op.operationId === undefined ? entry.at : [...entry.at, "operationId"]);
}

/** An operation whose method name another operation has too: the name it was given instead. */
export interface RenamedOperation<E> {
  readonly entry: E;
  readonly name: string;
  readonly natural: string;
  /** The operation that kept the name. */
  readonly holder: E;
}

/**
 * Method name per operation, in the order given. Two operations on one name
 * (`GET /users` and `GET /users/~`, both `getUsers`; operationIds `List
 * Rules` and `List rules`) get two, by a fixed rule that does not depend on
 * the document's order: the operation whose operationId is the name as
 * written keeps it, else the first by path, then method; the others take
 * `<name>_2` (`_3`, ...: the first free one). A name no other operation has
 * is never changed.
 */
export function methodNames<E extends Pick<OperationEntry, "method" | "path" | "op" | "at">>(
  entries: readonly E[],
): Map<E, string> {
  return methodNaming(entries).names;
}

/** `methodNames`, and which operations it renamed (for the warnings). */
export function methodNaming<E extends Pick<OperationEntry, "method" | "path" | "op" | "at">>(
  entries: readonly E[],
): { names: Map<E, string>; renamed: RenamedOperation<E>[] } {
  const natural = new Map(entries.map((entry) => [entry, methodNameOf(entry)] as const));
  const count = new Map<string, number>();
  for (const name of natural.values()) count.set(name, (count.get(name) ?? 0) + 1);
  const names = new Map<E, string>();
  const holders = new Map<string, E>();
  const contested: E[] = [];
  for (const entry of entries) {
    const name = natural.get(entry)!;
    if (count.get(name) === 1) {
      names.set(entry, name);
      holders.set(name, entry);
    } else contested.push(entry);
  }
  const written = (e: E): number => (e.op.operationId === natural.get(e) ? 0 : 1);
  const order = (a: E, b: E): number =>
    written(a) - written(b) ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
    (a.method < b.method ? -1 : a.method > b.method ? 1 : 0);
  const renamed: RenamedOperation<E>[] = [];
  for (const entry of [...contested].sort(order)) {
    const base = natural.get(entry)!;
    let name = base;
    for (let k = 2; holders.has(name) || METHOD_NAMES_TAKEN.has(name); k++) name = `${base}_${k}`;
    if (name !== base) renamed.push({ entry, name, natural: base, holder: holders.get(base)! });
    names.set(entry, name);
    holders.set(name, entry);
  }
  return { names: new Map(entries.map((entry) => [entry, names.get(entry)!])), renamed };
}

/** The binding of each method's function in a module that imports `imported` (the rule above): method name -> function name. */
export function functionNames(methods: readonly string[], imported: ReadonlySet<string>): Map<string, string> {
  const taken = new Set([...imported, ...methods]);
  const names = new Map<string, string>();
  for (const method of methods) {
    if (!RESERVED_BINDINGS.has(method) && !imported.has(method)) {
      names.set(method, method);
      continue;
    }
    const name = bindingName(method, taken);
    taken.add(name);
    names.set(method, name);
  }
  return names;
}
