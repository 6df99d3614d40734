/**
 * The 3.0 reading's record of what moved (generator/load/openapi-30/history.ts):
 * a schema wrapped inside a schema that is wrapped too (`nullable` beside an
 * `allOf`, twice) leads pointers back to the text as written, and written
 * `$ref`s forward to where their target is now; a property named like a
 * keyword the reading moves (`anyOf`) is not mistaken for it.
 */
import { expect, test } from "vitest";
import { loadSchema, locateInSchema, openApi30NotesOf } from "../../generator/load/index.js";
import { getAtPointer, parsePointer } from "../../generator/load/json-pointer.js";
import { writeTree } from "./support.js";

const SCHEMA = [
  "openapi: 3.0.3", //                                    1
  "info: { title: T, version: '1' }", //                  2
  "paths: {}", //                                         3
  "components:", //                                       4
  "  schemas:", //                                        5
  "    Pet:", //                                          6
  "      nullable: true", //                              7
  "      allOf: [{ $ref: '#/components/schemas/Base' }]", // 8
  "      properties:", //                                 9
  "        anyOf:", //                                   10
  "          nullable: true", //                         11
  "          description: a property named anyOf", //    12
  "          allOf:", //                                 13
  "            - $ref: '#/components/schemas/Base'", //  14
  "            - properties:", //                        15
  "                street: { type: string, minLength: 2 }", // 16
  "    Street: { $ref: '#/components/schemas/Pet/properties/anyOf/allOf/1/properties/street' }", // 17
  "    Base: { type: object }", //                       18
  "",
].join("\n");

test("pointers into a schema moved inside a moved schema lead back to their line; a $ref written into it follows it", async () => {
  const model = await loadSchema("schema.yaml", { cwd: writeTree({ "schema.yaml": SCHEMA }) });
  const pet = model.schemas.Pet as Record<string, unknown>;
  // Pet: anyOf [ { allOf, properties }, null ]; its property `anyOf`: anyOf [ { allOf }, null ].
  const street = "/components/schemas/Pet/anyOf/0/properties/anyOf/anyOf/0/allOf/1/properties/street";
  expect(getAtPointer(model.document, parsePointer(street))).toEqual({ type: "string", minLength: 2 });
  expect((pet.anyOf as unknown[])[1]).toEqual({ type: "null" });
  expect(model.schemas.Street).toEqual({ $ref: `#${street}` });
  expect(locateInSchema(model, `${street}/minLength`)).toMatchObject({
    line: 16,
    pointer: "/components/schemas/Pet/properties/anyOf/allOf/1/properties/street/minLength",
  });
  expect(locateInSchema(model, "/components/schemas/Pet/anyOf/0/properties/anyOf/description")).toMatchObject({
    line: 12,
  });
  expect(locateInSchema(model, "/components/schemas/Pet/anyOf/0/allOf/0/$ref")).toMatchObject({ line: 8 });
  // The `{ type: "null" }` the reading added stands where `nullable` was written.
  expect(locateInSchema(model, "/components/schemas/Pet/anyOf/1")).toMatchObject({ line: 7 });
});

test("`schema: null` (seen in the wild) is read as no schema, and noted at its line", async () => {
  const text = [
    "openapi: 3.0.1",
    "info: { title: T, version: '1' }",
    "paths:",
    "  /a:",
    "    post:",
    "      requestBody:",
    "        content:",
    "          application/json:",
    "            schema: null",
    "      responses:",
    "        '204': { description: ok }",
    "",
  ].join("\n");
  const model = await loadSchema("schema.yaml", { cwd: writeTree({ "schema.yaml": text }) });
  const pointer = "/paths/~1a/post/requestBody/content/application~1json/schema";
  expect(getAtPointer(model.document, parsePointer(pointer))).toBeUndefined();
  expect(openApi30NotesOf(model)?.nullSchemas).toEqual([pointer]);
  expect(locateInSchema(model, pointer)).toMatchObject({ line: 9, column: 13 });
});
