/**
 * Real OpenAPI 3.0 documents written by others (test/generator/foreign/SOURCES.md),
 * read as 3.1 (generator/load/openapi-30/): the checks of documents.test.ts
 * (documents-suite.ts): `gen` exits 0, `tsc --strict` passes, every
 * component openapi-typescript names is a named type and every operation
 * it lists a client method; none degrades, nothing is left out.
 */
import { FOREIGN_DOCUMENTS_30 } from "./documents.js";
import { foreignDocumentSuite } from "./documents-suite.js";

const NOTHING: Record<string, never[]> = Object.fromEntries(FOREIGN_DOCUMENTS_30.map((doc) => [doc.name, []]));

foreignDocumentSuite(FOREIGN_DOCUMENTS_30, NOTHING, NOTHING);
