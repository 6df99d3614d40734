/**
 * Bundling: turn a root file whose `$ref`s may point into other files into
 * one document with internal refs only (what `LoadedSchema.document` and
 * `generated/openapi.json` promise).
 *
 * A ref to a named schema in another file (`other.yaml#/components/schemas/Foo`,
 * `#/$defs/Foo`, `#/definitions/Foo`) is hoisted into `components.schemas.Foo`
 * and the ref rewritten, so the generated types keep the name and recursive
 * schemas stay finite. Any other external ref (a whole file, a path item) is
 * inlined. Internal refs of the root file are left as they are.
 *
 * Every piece of the bundled document remembers which file and pointer it
 * came from (`origins`), so later errors still name the file to edit.
 */
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { SchemaLoadError } from "../errors.js";
import { getAtPointer, isPlainObject, parseRefFragment, type Pointer } from "./json-pointer.js";
import { findRefs, type RefSite } from "./refs.js";
import type { SchemaRoot } from "./schema-root.js";
import type { SourceFile } from "./source-file.js";

interface Origin {
  /** Where the piece sits in the bundled document. */
  readonly at: Pointer;
  readonly file: SourceFile;
  /** Where it sits in `file`. */
  readonly from: Pointer;
}

/**
 * Where the pieces of a document rewritten after bundling came from (the
 * OpenAPI 3.0 reading, ./openapi-30/): maps a pointer into the rewritten
 * document to the pointer it had before.
 */
export interface PointerHistory {
  original(pointer: Pointer): Pointer;
}

export class BundledDocument {
  constructor(
    readonly data: unknown,
    readonly root: SourceFile,
    private readonly origins: readonly Origin[],
    /** The `$ref` sites of `data`, when bundling already found them (checkRefs needs them too). */
    readonly refSites?: readonly RefSite[],
    private readonly history?: PointerHistory,
  ) {}

  /** The same document, rewritten in place since: `history` leads its pointers back to the bundled ones. */
  rewritten(history: PointerHistory): BundledDocument {
    return new BundledDocument(this.data, this.root, this.origins, undefined, history);
  }

  /** The source location of a pointer into the bundled document. */
  where(rewrittenPointer: Pointer, options: { key?: boolean } = {}): ReturnType<SourceFile["where"]> {
    const pointer = this.history === undefined ? rewrittenPointer : this.history.original(rewrittenPointer);
    let best: Origin = { at: [], file: this.root, from: [] };
    for (const origin of this.origins) {
      if (origin.at.length > best.at.length && origin.at.every((segment, i) => pointer[i] === segment)) best = origin;
    }
    return best.file.where([...best.from, ...pointer.slice(best.at.length)], options);
  }
}

export type ReadSource = (absolutePath: string) => Promise<SourceFile>;

/** `schemaRoot`: the folder `$ref`s may read files from (see schema-root.ts). */
export async function bundle(
  root: SourceFile,
  readSource: ReadSource,
  schemaRoot?: SchemaRoot,
): Promise<BundledDocument> {
  // Nothing to bundle (the usual case): no copy, no second walk.
  if (!isPlainObject(root.data)) return new BundledDocument(root.data, root, []);
  const rootSites = findRefs(root.data);
  if (rootSites.every((site) => site.ref.startsWith("#"))) return new BundledDocument(root.data, root, [], rootSites);
  const document = structuredClone(root.data);
  const origins: Origin[] = [];
  const hoisted = new Map<string, string>();
  const files = new Map<string, Promise<SourceFile>>([[root.absolutePath, Promise.resolve(root)]]);

  const readCached = (absolutePath: string): Promise<SourceFile> => {
    let file = files.get(absolutePath);
    if (!file) {
      file = readSource(absolutePath);
      files.set(absolutePath, file);
    }
    return file;
  };

  const componentSchemas = (): Record<string, unknown> => {
    if (!isPlainObject(document.components)) document.components = {};
    const components = document.components as Record<string, unknown>;
    if (!isPlainObject(components.schemas)) components.schemas = {};
    return components.schemas as Record<string, unknown>;
  };

  /**
   * Resolve external refs inside `value`, which came from `file` at `from`
   * and will sit at `at` in the bundle; returns the value to store there.
   */
  const resolveIn = async (
    value: unknown,
    file: SourceFile,
    from: Pointer,
    at: Pointer,
    inlineStack: readonly string[],
  ): Promise<unknown> => {
    // Deepest sites first, so an inlined object already carries resolved contents.
    const sites = findRefs(value).reverse();
    let result = value;
    for (const site of sites) {
      const internal = site.ref.startsWith("#");
      if (internal && file === root) continue;
      const siteInFile = [...from, ...site.path];
      const hash = site.ref.indexOf("#");
      const filePart = internal ? "" : hash === -1 ? site.ref : site.ref.slice(0, hash);
      const fragment = hash === -1 ? "#" : site.ref.slice(hash);
      if (/^[a-z][a-z0-9+.-]*:/i.test(filePart)) {
        throw new SchemaLoadError(
          "dangling-ref",
          [
            {
              ...file.where([...siteInFile, "$ref"]),
              message: `$ref ${JSON.stringify(site.ref)} points at a URL; the generator works offline.`,
            },
          ],
          "Copy the referenced schema into the repository and point the $ref at the copy (a relative file path or #/components/schemas/...).",
        );
      }
      let decoded: string;
      try {
        decoded = decodeURI(filePart);
      } catch {
        throw new SchemaLoadError(
          "dangling-ref",
          [
            {
              ...file.where([...siteInFile, "$ref"]),
              message: `$ref ${JSON.stringify(site.ref)} is not a valid URI reference (a stray "%").`,
            },
          ],
          'Write the file path with "%25" for a literal "%", or rename the file.',
        );
      }
      const targetPath = filePart === "" ? file.absolutePath : path.resolve(path.dirname(file.absolutePath), decoded);
      if (schemaRoot && !(await schemaRoot.contains(targetPath))) {
        throw new SchemaLoadError(
          "ref-outside-root",
          [
            {
              ...file.where([...siteInFile, "$ref"]),
              message: `$ref ${JSON.stringify(site.ref)} names a file outside the schema root ${JSON.stringify(`${schemaRoot.shown}/`)}; it was not read.`,
            },
          ],
          "Keep referenced schema files in the root schema's folder (or below it). To allow a wider folder on purpose, pass `--root <dir>` to mantyx-wire gen.",
        );
      }
      let target: SourceFile;
      try {
        target = await readCached(targetPath);
      } catch (error) {
        if (error instanceof SchemaLoadError && error.code === "io") {
          throw new SchemaLoadError(
            "dangling-ref",
            [
              {
                ...file.where([...siteInFile, "$ref"]),
                message: `$ref ${JSON.stringify(site.ref)} names a file that cannot be read (${error.problems[0].message}).`,
              },
            ],
            "Fix the file path in the $ref; it is resolved relative to the file that contains it.",
          );
        }
        throw error;
      }
      const segments = parseRefFragment(fragment);
      const targetValue = segments && getAtPointer(target.data, segments);
      if (!segments || targetValue === undefined) {
        throw new SchemaLoadError(
          "dangling-ref",
          [
            {
              ...file.where([...siteInFile, "$ref"]),
              message: `$ref ${JSON.stringify(site.ref)} does not resolve: ${target.displayPath} has nothing at ${JSON.stringify(fragment)}.`,
            },
          ],
          "Point the $ref at an existing location (a JSON pointer such as #/components/schemas/Name).",
        );
      }
      const key = `${target.absolutePath}${fragment}`;
      const name = hoistableName(segments);
      if (name !== undefined) {
        let hoistedName = hoisted.get(key);
        if (hoistedName === undefined) {
          const schemas = componentSchemas();
          if (Object.hasOwn(schemas, name) && !isDeepStrictEqual(schemas[name], targetValue)) {
            throw new SchemaLoadError(
              "name-collision",
              [
                {
                  ...file.where([...siteInFile, "$ref"]),
                  message: `$ref ${JSON.stringify(site.ref)} would be bundled as components.schemas.${name}, but a different schema already has that name.`,
                },
              ],
              `Rename one of the two schemas named ${JSON.stringify(name)}; bundled component names must be unique.`,
            );
          }
          hoistedName = name;
          hoisted.set(key, name);
          schemas[name] = true; // placeholder: a recursive ref back to `key` now finds `name`
          origins.push({ at: ["components", "schemas", name], file: target, from: segments });
          schemas[name] = await resolveIn(
            structuredClone(targetValue),
            target,
            segments,
            ["components", "schemas", name],
            [],
          );
        }
        site.holder.$ref = `#/components/schemas/${hoistedName}`;
        continue;
      }
      if (inlineStack.includes(key)) {
        throw new SchemaLoadError(
          "ref-cycle",
          [
            {
              ...file.where([...siteInFile, "$ref"]),
              message: `$ref ${JSON.stringify(site.ref)} includes itself (a cycle through files).`,
            },
          ],
          "Move the recursive schema under components.schemas (or $defs) of its file, so it is bundled by name instead of inlined.",
        );
      }
      const inlinedAt = [...at, ...site.path];
      const inlined = await resolveIn(structuredClone(targetValue), target, segments, inlinedAt, [...inlineStack, key]);
      const { $ref: _ref, ...siblings } = site.holder;
      const replacement =
        isPlainObject(inlined) && Object.keys(siblings).length > 0 ? { ...inlined, ...siblings } : inlined;
      if (site.path.length === 0) {
        result = replacement;
      } else {
        const parent = getAtPointer(result, site.path.slice(0, -1)) as Record<string, unknown> | unknown[];
        (parent as Record<string, unknown>)[site.path[site.path.length - 1]!] = replacement;
      }
      origins.push({ at: inlinedAt, file: target, from: segments });
    }
    return result;
  };

  const bundled = await resolveIn(document, root, [], [], []);
  return new BundledDocument(bundled, root, origins);
}

/** The component name a ref target is hoisted under, when it names a schema. */
function hoistableName(segments: Pointer): string | undefined {
  if (segments.length === 3 && segments[0] === "components" && segments[1] === "schemas") return segments[2];
  if (segments.length === 2 && (segments[0] === "$defs" || segments[0] === "definitions")) return segments[1];
  return undefined;
}
