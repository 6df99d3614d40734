/**
 * One schema file on disk: its text, its parsed value, and a way back from a
 * JSON pointer to a line and column (through the yaml CST), so every error
 * can name the place in the file the author edits.
 */
import { readFile } from "node:fs/promises";
import type { Document, Node } from "yaml";
import { yamlLibrary } from "./yaml-library.js";
import { SchemaLoadError } from "../errors.js";
import { fastYamlData } from "./fast-yaml.js";
import { locateInJson } from "./json-locate.js";
import { formatPointer, type Pointer } from "./json-pointer.js";

export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Extensions of the files the generator reads as schemas. */
export const SCHEMA_EXTENSIONS = [".yaml", ".yml", ".json"] as const;

/**
 * At most this many alias expansions per file (yaml's `maxAliasCount`, which
 * weighs each expansion by the aliases inside what it copies). A schema
 * needs few or none; a "billion laughs" file needs billions, and is refused
 * after this many steps instead of filling memory.
 */
export const MAX_ALIAS_EXPANSIONS = 1000;

/** Positions of a JSON file found by scanning before its `yaml` tree is built (a scan skips megabytes in well under a second; the tree of a 13 MB file takes seconds to build). */
const JSON_SCANS = 4;

export interface ReadOptions {
  /**
   * Whether errors may quote the file's lines (excerpts, YAML messages).
   * False for a file the user did not write into the schema's folder (one
   * reached through a wider \`--root\`): positions only, never its content.
   */
  readonly quote?: boolean;
}

export class SourceFile {
  private constructor(
    /** Absolute path. */
    readonly absolutePath: string,
    /** Path shown to people: relative to the working directory, POSIX separators. */
    readonly displayPath: string,
    readonly text: string,
    /** The parsed value (plain JSON data). */
    readonly data: unknown,
    /** The YAML syntax tree, for positions; parsed on first use for JSON files, null if it cannot be. */
    private yaml: YamlTree | null | undefined,
    /** See `ReadOptions.quote`. */
    readonly quotable: boolean,
  ) {}

  /** How many positions of this (JSON) file were found by scanning its text. */
  private jsonLookups = 0;

  /**
   * Read and parse a schema file: JSON for `.json`, YAML otherwise. Throws
   * `SchemaLoadError` (`io`, `yaml-syntax`).
   */
  static async read(absolutePath: string, displayPath: string, options: ReadOptions = {}): Promise<SourceFile> {
    if (!SCHEMA_EXTENSIONS.some((extension) => absolutePath.toLowerCase().endsWith(extension))) {
      // Never read what is not a schema file (a $ref to /proc/self/environ, a key file): its content could end up in an error.
      throw new SchemaLoadError(
        "io",
        [
          {
            file: displayPath,
            message: `not a schema file: the generator reads only ${SCHEMA_EXTENSIONS.join(", ")} files`,
          },
        ],
        "Name a YAML or JSON schema file (`--schema <path>`, and every $ref to another file).",
      );
    }
    let text: string;
    try {
      text = await readFile(absolutePath, "utf8");
    } catch (cause) {
      const reason = (cause as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (cause as Error).message;
      throw new SchemaLoadError(
        "io",
        [{ file: displayPath, message: `cannot read the schema: ${reason}` }],
        "Check the path (`--schema <path>`, default schema/openapi.yaml) and that the file is readable.",
        { cause },
      );
    }
    return SourceFile.parse(text, absolutePath, displayPath, options);
  }

  static parse(
    text: string,
    absolutePath: string,
    displayPath: string,
    { quote = true }: ReadOptions = {},
  ): SourceFile {
    const excerpt = (position: Position | undefined): { excerpt?: string } =>
      quote && position ? { excerpt: excerptAt(text, position) } : {};
    if (absolutePath.toLowerCase().endsWith(".json")) {
      // JSON.parse is strict JSON (YAML would accept comments, single quotes)
      // and fast; YAML, a superset of JSON, gives positions if an error needs them.
      try {
        return new SourceFile(absolutePath, displayPath, text, JSON.parse(text) as unknown, undefined, quote);
      } catch (cause) {
        // V8's message quotes the text around the error ("...is not valid JSON"): never shown; the position is.
        const offset = /at position (\d+)/.exec((cause as Error).message)?.[1];
        const position = offset === undefined ? undefined : positionAt(text, Number(offset));
        const what = position === undefined ? "" : ` at line ${position.line}, column ${position.column}`;
        throw new SchemaLoadError(
          "yaml-syntax",
          [
            {
              file: displayPath,
              ...position,
              ...excerpt(position),
              message: `invalid JSON${what}${text.trim() === "" ? " (the file is empty)" : ""}.`,
            },
          ],
          "Fix the JSON syntax at that position (a trailing comma or a missing quote is the usual cause).",
        );
      }
    }
    // Positions are read from the `yaml` tree only when a problem is located (`locate`).
    const fast = fastYamlData(text);
    if (fast !== undefined) return new SourceFile(absolutePath, displayPath, text, fast, undefined, quote);
    const yaml = parseYaml(text);
    if (yaml.document.errors.length > 0) {
      const problems = yaml.document.errors.map((error) => {
        const position = yaml.position(error.pos[0]);
        return {
          file: displayPath,
          ...position,
          ...excerpt(position),
          // yaml's messages can quote a token of the file (a tag, a directive).
          message: quote ? `invalid YAML (${error.code}): ${error.message}` : `invalid YAML (${error.code}).`,
          fix: yamlFix(error.code),
        };
      });
      throw new SchemaLoadError(
        "yaml-syntax",
        [problems[0]!, ...problems.slice(1)],
        "Fix the YAML syntax at that position.",
      );
    }
    let data: unknown;
    try {
      data = yaml.document.toJS({ maxAliasCount: MAX_ALIAS_EXPANSIONS });
    } catch (cause) {
      if (!(cause instanceof ReferenceError)) throw cause;
      const position = firstAliasPosition(yaml);
      throw new SchemaLoadError(
        "yaml-aliases",
        [
          {
            file: displayPath,
            ...position,
            ...excerpt(position),
            message: `the file's YAML aliases (*name) expand to more than ${MAX_ALIAS_EXPANSIONS} copies: refused before expanding them (an alias bomb, or a schema that should use $ref).`,
          },
        ],
        "Replace the anchors and aliases (&name / *name) with $ref to a named schema; a schema needs no nested aliases.",
      );
    }
    return new SourceFile(absolutePath, displayPath, text, data, yaml, quote);
  }

  /**
   * Line and column of the value at `pointer` (or of its key, with
   * `{ key: true }`). When the pointer goes past what exists, the deepest
   * existing ancestor's position is returned.
   */
  locate(pointer: Pointer, options: { key?: boolean } = {}): Position | undefined {
    // A JSON file is scanned for the few positions a run reports (json-locate.ts);
    // past those, one `yaml` tree answers the rest faster than a scan each.
    if (
      this.yaml === undefined &&
      this.absolutePath.toLowerCase().endsWith(".json") &&
      this.jsonLookups++ < JSON_SCANS
    ) {
      const spot = locateInJson(this.text, pointer);
      return positionAt(this.text, options.key && spot.key !== undefined ? spot.key : spot.value);
    }
    if (this.yaml === undefined) {
      const yaml = parseYaml(this.text);
      this.yaml = yaml.document.errors.length > 0 ? null : yaml;
    }
    const yaml = this.yaml;
    if (!yaml) return undefined;
    const { isMap, isPair, isScalar, isSeq } = yamlLibrary();
    let node: Node | null | undefined = yaml.document.contents;
    let keyNode: Node | null | undefined;
    for (const segment of pointer) {
      node = deref(node, yaml.document);
      let next: Node | null | undefined;
      let nextKey: Node | null | undefined;
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === segment,
        );
        next = pair?.value as Node | null | undefined;
        nextKey = pair?.key as Node | null | undefined;
      } else if (isSeq(node) && /^(0|[1-9][0-9]*)$/.test(segment)) {
        next = node.items[Number(segment)] as Node | null | undefined;
      }
      if (next === undefined || next === null) {
        // Past the end: report the key of the missing segment's parent pair if any.
        break;
      }
      node = next;
      keyNode = nextKey;
    }
    const target = options.key && keyNode ? keyNode : node;
    const offset = target?.range?.[0];
    return offset === undefined ? undefined : yaml.position(offset);
  }

  /** `locate` plus an excerpt, ready to spread into a `SchemaProblem`. */
  where(
    pointer: Pointer,
    options: { key?: boolean } = {},
  ): { file: string; pointer: string; line?: number; column?: number; excerpt?: string } {
    const position = this.locate(pointer, options);
    return {
      file: this.displayPath,
      pointer: formatPointer(pointer),
      ...position,
      ...(position && this.quotable && { excerpt: excerptAt(this.text, position) }),
    };
  }
}

interface YamlTree {
  readonly document: Document;
  position(offset: number): Position;
}

function parseYaml(text: string): YamlTree {
  const { LineCounter, parseDocument } = yamlLibrary();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  return {
    document,
    position: (offset) => {
      const { line, col } = lineCounter.linePos(offset);
      return { line, column: col };
    },
  };
}

/** Where the first alias of the document is (the place to start replacing them). */
function firstAliasPosition(yaml: YamlTree): Position | undefined {
  let offset: number | undefined;
  const { visit } = yamlLibrary();
  visit(yaml.document, {
    Alias(_key, node) {
      offset = node.range?.[0];
      return visit.BREAK;
    },
  });
  return offset === undefined ? undefined : yaml.position(offset);
}

function deref(node: Node | null | undefined, document: Document): Node | null | undefined {
  const { isAlias } = yamlLibrary();
  let current = node;
  for (let hops = 0; isAlias(current) && hops < 100; hops++) current = current.resolve(document) as Node | undefined;
  return current;
}

/** 1-based line and column of a character offset. */
function positionAt(text: string, offset: number): Position {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) line++;
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return { line, column: offset - lineStart + 1 };
}

/**
 * The most characters of a source line an excerpt shows. A longer line (a
 * minified JSON document is one line of megabytes) is cut to a window
 * around the column, marked with `…` where it was cut.
 */
export const EXCERPT_WIDTH = 160;
const CUT = "\u2026";

/** The line before, the line itself and a caret line, gutter-numbered; lines longer than `EXCERPT_WIDTH` cut to a window around the column. */
export function excerptAt(text: string, position: Position): string {
  const lines = excerptLines(text, position.line);
  const first = Math.max(1, position.line - 1);
  const width = String(position.line).length;
  const column = Math.max(0, position.column - 1);
  // One window for every line shown, so the caret stays under its character.
  const longest = Math.max(0, ...lines.map((line) => line.length));
  const start =
    longest <= EXCERPT_WIDTH
      ? 0
      : Math.max(0, Math.min(column - Math.floor(EXCERPT_WIDTH / 2), longest - EXCERPT_WIDTH));
  const end = start + EXCERPT_WIDTH;
  const out: string[] = [];
  lines.forEach((line, i) => {
    const shown =
      line.length <= EXCERPT_WIDTH && start === 0
        ? line
        : `${start > 0 ? CUT : ""}${line.slice(start, end)}${line.length > end ? CUT : ""}`;
    out.push(`${String(first + i).padStart(width)} | ${shown}`);
  });
  out.push(`${" ".repeat(width)} | ${" ".repeat(column - start + (start > 0 ? 1 : 0))}^`);
  return out.join("\n");
}

/** Lines `line - 1` and `line` of `text` (1-based; those that exist), found without splitting the whole text. */
function excerptLines(text: string, line: number): string[] {
  const first = Math.max(1, line - 1);
  let at = 0;
  for (let n = 1; n < first; n++) {
    const next = text.indexOf("\n", at);
    if (next === -1) return [];
    at = next + 1;
  }
  const lines: string[] = [];
  for (let n = first; n <= line && at <= text.length; n++) {
    const next = text.indexOf("\n", at);
    const end = next === -1 ? text.length : next;
    lines.push(text.slice(at, end).replace(/\r$/, ""));
    if (next === -1) break;
    at = next + 1;
  }
  return lines;
}

function yamlFix(code: string): string {
  switch (code) {
    case "DUPLICATE_KEY":
      return "Remove or rename one of the two keys; YAML maps cannot repeat a key.";
    case "BAD_INDENT":
    case "MISSING_CHAR":
    case "UNEXPECTED_TOKEN":
      return "Check indentation (spaces, not tabs) and unclosed brackets or quotes on this line and the one before.";
    case "TAB_AS_INDENT":
      return "Indent with spaces; YAML does not allow tabs for indentation.";
    default:
      return "Fix the YAML syntax at that position (indentation, quoting, unclosed brackets).";
  }
}
