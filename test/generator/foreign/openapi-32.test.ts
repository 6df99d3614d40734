/**
 * OpenAPI 3.2 documents load (`openapi: 3.2.x`, checked against the OAI 3.2
 * meta-schema), 3.2-only fields included; a 3.2 document that breaks the
 * 3.2 meta-schema, and versions the generator does not read, are typed
 * errors with their place.
 */
import { describe, expect, test } from "vitest";
import { isSchemaLoadError, type SchemaLoadError } from "../../../generator/errors.js";
import { operationsOf } from "../../../generator/emit/operations.js";
import { loadSchema } from "../../../generator/load/index.js";
import { writeTree } from "../support.js";

const doc32 = (extra = "", version = "3.2.0"): string =>
  [
    `openapi: ${version}`,
    "$self: https://example.test/openapi.yaml",
    "info: { title: T, version: '1' }",
    "tags: [{ name: items, kind: nav, summary: Items }]",
    "paths:",
    "  /items:",
    "    query:",
    "      operationId: queryItems",
    "      responses:",
    "        '200':",
    "          description: The items, one JSON value per line.",
    "          content:",
    "            application/jsonl:",
    "              itemSchema: { $ref: '#/components/schemas/Item' }",
    extra,
    "components:",
    "  schemas:",
    "    Item: { type: object, properties: { id: { type: string } } }",
    "",
  ].join("\n");

async function loadError(text: string): Promise<SchemaLoadError> {
  const error: unknown = await loadSchema("schema.yaml", { cwd: writeTree({ "schema.yaml": text }) }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isSchemaLoadError(error)) throw new Error(`expected a SchemaLoadError, got ${String(error)}`);
  return error;
}

describe("OpenAPI 3.2", () => {
  test("a 3.2 document with 3.2-only fields ($self, tag kind, the query method, itemSchema) loads", async () => {
    const model = await loadSchema("schema.yaml", { cwd: writeTree({ "schema.yaml": doc32() }) });
    expect(Object.keys(model.schemas)).toEqual(["Item"]);
    expect(model.document.openapi).toBe("3.2.0");
  });

  test("a Path Item $ref and 3.2's additionalOperations are operations like any other, each at its own place", async () => {
    const extra = [
      "    additionalOperations:",
      "      COPY:",
      "        operationId: copyItems",
      "        responses: { '204': { description: Copied. } }",
      "  /items/{id}:",
      "    $ref: '#/components/pathItems/One'",
      "    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]",
    ].join("\n");
    const text = doc32(extra).replace(
      "components:\n",
      "components:\n  pathItems:\n    One:\n      get:\n        operationId: getItem\n        responses: { '200': { description: The item. } }\n",
    );
    const model = await loadSchema("schema.yaml", { cwd: writeTree({ "schema.yaml": text }) });
    const found = operationsOf(model.document).map((e) => ({
      id: e.op.operationId,
      httpMethod: e.httpMethod,
      at: e.at.join("/"),
      params: e.item.parameters?.length ?? 0,
    }));
    expect(found).toEqual([
      { id: "queryItems", httpMethod: "QUERY", at: "paths//items/query", params: 0 },
      { id: "copyItems", httpMethod: "COPY", at: "paths//items/additionalOperations/COPY", params: 0 },
      { id: "getItem", httpMethod: "GET", at: "components/pathItems/One/get", params: 1 },
    ]);
  });

  test("a 3.2 field the 3.2 meta-schema does not know is not-openapi-31 at its line, naming 3.2", async () => {
    // `badField` lands in the Path Item of /items.
    const error = await loadError(doc32("    badField: 1"));
    expect(error.code).toBe("not-openapi-31");
    expect(error.fix).toContain("OpenAPI 3.2 specification");
    expect(error.problems.some((p) => p.pointer?.startsWith("/paths/~1items") && p.line !== undefined)).toBe(true);
  });

  test("the same 3.2-only field (itemSchema) in a 3.1 document fails the 3.1 meta-schema", async () => {
    const error = await loadError(
      doc32("", "3.1.0")
        .replace("$self: https://example.test/openapi.yaml\n", "")
        .replace("kind: nav, summary: Items", "description: Items")
        .replace("    query:", "    get:"),
    );
    expect(error.code).toBe("not-openapi-31");
    expect(error.fix).toContain("OpenAPI 3.1 specification");
    expect(error.problems.map((p) => p.pointer).join(" ")).toContain("itemSchema");
  });

  test.each(["3.3.0", "4.0.0"])("openapi: %s is refused with the versions the generator reads", async (version) => {
    const error = await loadError(doc32("", version));
    expect(error.code).toBe("not-openapi-31");
    expect(error.message).toContain(`\`openapi: ${version}\` is not an OpenAPI 3.0, 3.1 or 3.2 version`);
    expect(error.problems[0].line).toBe(1);
  });
});

test("a 3.1 Path Item that is a $ref to components.pathItems loads and its operation is found (the 2022-10-07 meta-schema omits the field OpenAPI 3.1.0 defines)", async () => {
  const text = [
    "openapi: 3.1.0",
    "info: { title: T, version: '1' }",
    "paths:",
    "  /pets/{id}:",
    "    $ref: '#/components/pathItems/Pet'",
    "components:",
    "  pathItems:",
    "    Pet:",
    "      get:",
    "        operationId: getPet",
    "        parameters: [{ name: id, in: path, required: true, schema: { type: string } }]",
    "        responses: { '200': { description: The pet. } }",
  ].join("\n");
  const model = await loadSchema("schema.yaml", { cwd: writeTree({ "schema.yaml": text }) });
  expect(operationsOf(model.document).map((e) => `${e.httpMethod} ${e.path} ${e.op.operationId}`)).toEqual([
    "GET /pets/{id} getPet",
  ]);
});

test("a 3.2 `in: querystring` parameter is left out of the client with a warning naming it, not dropped silently into an empty `params: {}`", async () => {
  const extra = [
    "    get:",
    "      operationId: listItems",
    "      parameters:",
    "        - name: selection",
    "          in: querystring",
    "          content:",
    "            application/x-www-form-urlencoded:",
    "              schema: { type: object, properties: { name: { type: string } } }",
    // 3.2 forbids `in: query` beside it; a header goes with it.
    "        - { name: X-Limit, in: header, schema: { type: integer } }",
    "      responses: { '200': { description: The items. } }",
  ].join("\n");
  const model = await loadSchema("schema.yaml", { cwd: writeTree({ "schema.yaml": doc32(extra) }) });
  const { clientReport, operationData } = await import("../../../generator/emit/client.js");
  const list = operationData(model).find((op) => op.id === "listItems")!;
  expect(JSON.stringify(list)).toContain("X-Limit");
  expect(JSON.stringify(list)).not.toContain("selection");
  expect(clientReport(model).leftOut).toEqual([
    {
      pointer: "/paths/~1items/get/parameters/0",
      reason: expect.stringMatching(/the `in: querystring` parameter "selection" \(OpenAPI 3\.2\) is left out/),
    },
  ]);
});
