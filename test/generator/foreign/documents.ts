/**
 * The real OpenAPI documents written by others that the foreign-document
 * tests generate from, read from the devDependencies that ship them
 * (never copied into this repository; test/generator/foreign/SOURCES.md
 * names each source and licence).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The installed package's folder (`exports` of some hide package.json, so not through require.resolve). */
const packageDir = (name: string): string => fileURLToPath(new URL(`../../../node_modules/${name}`, import.meta.url));

export interface ForeignDocument {
  /** Short name (the test's and the output folder's). */
  readonly name: string;
  readonly file: string;
  /** What it exercises. */
  readonly covers: string;
}

const readme = (file: string): string => path.join(packageDir("@readme/oas-examples"), "3.1", "yaml", file);

export const FOREIGN_DOCUMENTS: readonly ForeignDocument[] = [
  { name: "train-travel", file: readme("train-travel.yaml"), covers: "bump.sh's Train Travel API: non-identifier component names (Links-Booking), kebab-case operationIds, query parameters, a webhook, oauth2 security" },
  { name: "webhooks", file: readme("webhooks.yaml"), covers: "the OpenAPI Initiative's webhook example: a document with no paths, only a webhook" },
  { name: "galaxy", file: path.join(packageDir("@scalar/galaxy"), "dist", "3.1.yaml"), covers: "Scalar Galaxy: parameters on many operations, bearer/basic/apiKey (header, query, cookie)/oauth2 security, multipart upload, a webhook, $dynamicRef, enum-tagged discriminators, tool-specific x- keywords" },
  { name: "petstore", file: readme("petstore.yaml"), covers: "the Swagger Petstore in 3.1: query arrays, form and multipart bodies, XML and JSON answers, apiKey and oauth2" },
  { name: "security", file: readme("security.yaml"), covers: "ReadMe's security example: operations without operationId, every security scheme type incl. mutualTLS (left out with a warning)" },
];
