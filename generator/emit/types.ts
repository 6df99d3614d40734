/**
 * The TypeScript types emitter: `types.ts`, one exported type per component
 * schema, plus a tag array per discriminated union and a branded type per
 * open variant.
 *
 * Why not json-schema-to-typescript: this protocol needs
 * - discriminated unions that narrow (`switch (event.type)` must reach each
 *   variant's `data`), including the open event union, whose unknown variant
 *   has to drop out of every `case "known_type":` (a branded tag type);
 * - `unknown`, never `any`, for open objects and free data, so unchecked
 *   access fails to compile;
 * - `"a" | "b" | (string & {})` for additive string sets (`x-known-values`);
 * - byte-stable output without a formatter (no prettier in the gen path:
 *   `npm run gen` must stay fast) and no splicing of schema text into code.
 * Each would be a post-processing pass over its output; a small converter
 * over the CONVENTIONS.md subset (generator/emit/types/) is simpler.
 */
import { formatPointer } from "../load/json-pointer.js";
import type { Diagnostic } from "../diagnostics.js";
import type { Emitter, LoadedSchema } from "../model.js";
import { discriminatedUnion } from "./types/discriminator.js";
import { docLines, renderJsDoc } from "./types/jsdoc.js";
import { componentNames, type ComponentNames } from "./component-names.js";
import { camelCase, pascalCase, plural, screamingSnake } from "./types/names.js";
import { SchemaConverter, excludedStrings, type Site } from "./types/schema-to-ts.js";
import { printMembers, printType, type TsType } from "./types/ts-type.js";

export const typesEmitter: Emitter = {
  name: "types",
  emit: (model, context) => {
    const { text, degraded } = convertTypes(model, context.names);
    return {
      files: [{ path: "types.ts", contents: text }],
      // The components not named by the natural rule first, then what types.ts has as `unknown`.
      diagnostics: [
        ...renamedComponentWarnings(context.names),
        ...degraded.map(
          ({ pointer, reason }): Diagnostic => ({
            level: "warning",
            emitter: "types",
            message: `${reason}.`,
            pointer,
          }),
        ),
      ],
    };
  },
};

/** One warning per component that `names` renamed (./component-names.ts), naming the one that kept the name. */
function renamedComponentWarnings(names: ComponentNames): Diagnostic[] {
  return names.renamed.map((r) => ({
    level: "warning",
    emitter: "types",
    message: `${r.holder === undefined ? `its validators' natural file, validators/${r.naturalFile}.js, is the generator's own index` : `its natural names (the type ${r.naturalType}, its validators in validators/${r.naturalFile}.js) are also those of component ${JSON.stringify(r.holder)} (types compared exactly, files ignoring case, as on macOS and Windows)`}; it is the type ${r.type}, validated by validate${r.type} in validators/${r.file}.js. Rename ${r.holder === undefined ? "it" : "one of them"} to choose the names.`,
    pointer: formatPointer(["components", "schemas", r.component]),
  }));
}

/** A branded string type requested while converting a component. */
interface Brand {
  readonly name: string;
  readonly site: Site;
  readonly excluded: readonly string[];
}

/** One schema the types emitter could not represent: it is `unknown` in types.ts. */
export interface Degradation {
  /** JSON pointer into the bundled document. */
  readonly pointer: string;
  readonly reason: string;
}

/** The schemas of `model` that types.ts has as `unknown` because they cannot be represented, in document order (the emitter's diagnostics; converts the schemas again). */
export function typeDegradations(model: LoadedSchema): Degradation[] {
  return convertTypes(model, componentNames(model)).degraded;
}

/** types.ts for `model`. */
export function emitTypes(model: LoadedSchema): string {
  return convertTypes(model, componentNames(model)).text;
}

/** types.ts for `model`, and what it has as `unknown` because it cannot be represented. */
function convertTypes(model: LoadedSchema, names: ComponentNames): { text: string; degraded: Degradation[] } {
  const degraded: Degradation[] = [];
  const typeNames = new Map(Object.keys(model.schemas).map((component) => [component, names.type(component)]));
  const taken = new Map<string, string>(
    [...typeNames].map(([component, name]) => [name, `component ${JSON.stringify(component)}`]),
  );
  /** `name` for `owner`, or `<name>_2` (`_3`, ...) when another declaration has it (component-names.ts's rule). */
  const claim = (name: string, owner: string): string => {
    let free = name;
    for (let k = 2; taken.has(free) && taken.get(free) !== owner; k++) free = `${name}_${k}`;
    taken.set(free, owner);
    return free;
  };

  let brands: Brand[] = [];
  const converter = new SchemaConverter({
    document: model.document,
    typeNames,
    brand: (site, excluded) => {
      const owner = `the open tag at #/components/schemas/${site.component}/${site.path.join("/")}`;
      const name = claim(
        typeNames.get(site.component)! +
          site.path
            .filter((_, i) => site.path[i - 1] === "properties")
            .map(pascalCase)
            .join(""),
        owner,
      );
      if (!brands.some((brand) => brand.name === name)) brands.push({ name, site, excluded });
      return name;
    },
    degraded: (site, reason) => {
      const pointer = formatPointer(["components", "schemas", site.component, ...site.path]);
      if (!degraded.some((d) => d.pointer === pointer)) degraded.push({ pointer, reason });
    },
  });

  const blocks: string[] = [fileDoc(model)];
  for (const [component, schema] of Object.entries(model.schemas)) {
    const name = typeNames.get(component)!;
    const site: Site = { component, path: [] };
    const doc = renderJsDoc(docLines(schema), "");
    const excluded = schema.type === "string" ? excludedStrings(schema.not, model.document) : undefined;
    if (excluded) {
      // The component itself is an open variant's tag.
      blocks.push([...doc, brandDeclaration(name)].join("\n"));
    } else {
      brands = [];
      blocks.push([...doc, declaration(name, converter.convert(schema, site))].join("\n"));
      for (const brand of brands) blocks.push(brandBlock(brand));
    }
    const union = discriminatedUnion(schema, model.document, ["components", "schemas", component]);
    if (union) {
      const constName = claim(
        `${screamingSnake(name)}_${screamingSnake(plural(union.property))}`,
        `the tags of ${name}`,
      );
      blocks.push(tagsBlock(constName, name, union.property, union.tags));
    }
  }
  // Without a declaration the file would be a script, not a module, under every
  // resolution but NodeNext's: the client's `import type * as T from "./types.js"` fails (TS2306).
  if (blocks.length === 1) blocks.push("export {};");
  return { text: `${blocks.join("\n\n")}\n`, degraded };
}

function fileDoc(model: LoadedSchema): string {
  const info = model.document.info;
  const title = [info?.title, info?.version].filter((part) => typeof part === "string" && part !== "").join(" ");
  return renderJsDoc(
    [
      `TypeScript types for ${title || "the schema"}: one per \`components.schemas\` entry.`,
      "",
      "Open objects carry `[key: string]: unknown`, so fields from newer servers survive.",
      "Additive string sets (`x-known-values`) accept any string and autocomplete the known ones.",
      "An event of a type this version does not know has a branded `type`, so",
      "`switch (event.type)` narrows every known case to its variant.",
    ],
    "",
  ).join("\n");
}

/** Lines longer than this are broken up (unions one member per line, objects one member per line). */
const MAX_LINE = 100;

const fits = (text: string): boolean => text.split("\n").every((line) => line.length <= MAX_LINE);

/** `export interface` for a plain object shape, `export type` for everything else. */
function declaration(name: string, type: TsType): string {
  if (type.kind === "object" && (type.properties.length > 0 || type.index)) {
    return `export interface ${name} {\n${printMembers(type, "  ").join("\n")}\n}`;
  }
  const single = `export type ${name} = ${printType(type, "")};`;
  if (type.kind === "union") {
    if (!single.includes("\n") && fits(single) && type.members.length <= 4) return single;
    const members = type.members.map((member) => {
      const print = (inline: boolean): string => {
        const text = printType(member, "  ", inline);
        return `  | ${member.kind === "intersection" ? `(${text})` : text}`;
      };
      return fits(print(true)) ? print(true) : print(false);
    });
    return `export type ${name} =\n${members.join("\n")};`;
  }
  return fits(single) ? single : `export type ${name} = ${printType(type, "", false)};`;
}

/**
 * An open variant's tag: a string that is none of the known values.
 *
 * Why `String & brand` and not `string & brand`: TypeScript narrows a union
 * in `case "x":` by keeping the members whose tag type is *comparable* with
 * "x", and every subtype of the primitive `string` is comparable with every
 * string literal, so a `string`-based tag would keep the unknown variant in
 * every case (and `event.data` would stay `unknown`). The boxed `String`
 * interface is not comparable with literals, so the variant drops out of
 * known cases, while `.length`, `.startsWith()`, `${tag}` and `String(tag)`
 * still work. Values only come from decoded JSON (cast when constructing).
 */
function brandDeclaration(name: string): string {
  return `export type ${name} = String & { readonly __${camelCase(name)}: unique symbol };`;
}

function brandBlock(brand: Brand): string {
  const shown = brand.excluded
    .slice(0, 3)
    .map((value) => JSON.stringify(value))
    .join(", ");
  const more = brand.excluded.length > 3 ? `, ... (${brand.excluded.length} known values)` : "";
  const doc = renderJsDoc(
    [
      `A tag value none of the known ones (${shown}${more}): sent by a newer server.`,
      "Branded so that comparing with a known literal narrows away from this variant; read it with `String(value)`.",
    ],
    "",
  );
  return [...doc, brandDeclaration(brand.name)].join("\n");
}

function tagsBlock(constName: string, unionName: string, property: string, tags: readonly string[]): string {
  const doc = renderJsDoc([`Every \`${property}\` tag of {@link ${unionName}}, in schema order.`], "");
  const items = tags.map((tag) => `  ${JSON.stringify(tag)},`).join("\n");
  return [
    ...doc,
    `export const ${constName} = [\n${items}\n] as const satisfies readonly ${unionName}[${JSON.stringify(property)}][];`,
  ].join("\n");
}
