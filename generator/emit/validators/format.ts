/**
 * Formatting of the validator modules: esbuild's printer (`transformSync`,
 * no minifying) turns ajv's one-line output into readable, ASCII-only code.
 */
import { transformSync, type TransformOptions } from "esbuild";

export const FORMAT_OPTIONS: Readonly<TransformOptions> = { format: "esm", charset: "ascii", legalComments: "inline" };

/** `code` as esbuild prints it (ES module, ASCII only, legal comments kept in place). */
export function formatModuleSync(code: string): string {
  return transformSync(code, FORMAT_OPTIONS).code;
}
