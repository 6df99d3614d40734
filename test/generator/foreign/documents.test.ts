/**
 * Real OpenAPI 3.1 documents written by others (test/generator/foreign/SOURCES.md),
 * read from the devDependencies that ship them: `gen` exits 0 with the
 * default emitters, the output passes `tsc --strict` (NodeNext and bundler), every
 * component schema openapi-typescript names becomes a named type and every
 * operation it lists a client method, and the schemas that degrade to
 * `unknown` are listed here one by one (at most 5% of the components).
 */
import { FOREIGN_DOCUMENTS } from "./documents.js";
import { foreignDocumentSuite } from "./documents-suite.js";

/** Every schema each document's output has as `unknown` (or partly), by pointer: the full list, checked exactly. */
const DEGRADED: Record<string, string[]> = {
  "train-travel": [],
  webhooks: [],
  galaxy: [],
  petstore: [],
  security: [],
  "readme-api": [],
  rclone: [],
  "github-webhooks": [],
  "petstore-3.1-osv": [],
  "petstore-3.2": [],
};

/** The warnings each document gets about what the client leaves out, in full. */
const LEFT_OUT: Record<string, RegExp[]> = {
  "train-travel": [/webhook\(s\) \(newBooking\) are left out/],
  webhooks: [/webhook\(s\) \(newPet\) are left out/],
  galaxy: [/webhook\(s\) \(newPlanet\) are left out/],
  petstore: [],
  security: [/security scheme "mutualTLS" \(mutualTLS\) is not one the client sends/],
  "readme-api": [],
  rclone: [],
  "petstore-3.1-osv": [],
  "github-webhooks": [/the document's 261 webhook\(s\) \(branch-protection-configuration-disabled, .*\) are left out/],
  "petstore-3.2": [],
};

foreignDocumentSuite(FOREIGN_DOCUMENTS, DEGRADED, LEFT_OUT);
