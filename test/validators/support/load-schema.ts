/** Loads schemas for the validator tests and the bench with the project's loader. */
import { fileURLToPath } from "node:url";
import { loadSchema } from "../../../generator/load/index.js";
import type { LoadedSchema } from "../../../generator/model.js";

export const REPO_ROOT = new URL("../../../", import.meta.url);
export const SCHEMA_PATH = new URL("schema/openapi.yaml", REPO_ROOT);
export const FIXTURES = new URL("../fixtures/", import.meta.url);

export function loadSchemaFile(file: URL): Promise<LoadedSchema> {
  return loadSchema(fileURLToPath(file), { cwd: fileURLToPath(REPO_ROOT) });
}
