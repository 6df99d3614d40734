/**
 * OpenAPI 3.0, read as written (generator/load/openapi-30/): openapi-30.yaml
 * carries every 3.0 idiom (`nullable` beside a `type`, an `enum`, a `$ref`
 * and an `allOf`; `x-nullable`; boolean exclusive bounds; `example`;
 * `format: binary`/`byte`; bare discriminator mapping names; `$ref`
 * siblings; identity escapes in a `pattern`; a `$ref` into a schema the
 * reading moves) and openapi-30-as-31.yaml is the same API in 3.1. Every
 * artefact is generated: the types equal a golden file, the validators
 * accept and refuse what 3.1 would, the document read is the 3.1 one (and
 * `diff` finds no change between the two), the client streams typed events
 * from `x-item-schema` and plain ones otherwise over real HTTP, and the
 * output passes `tsc --strict`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { diffDocuments } from "../../../generator/diff/diff-documents.js";
import { emitTypes } from "../../../generator/emit/types.js";
import { loadSchema } from "../../../generator/load/index.js";
import { exampleValue } from "../../../generator/mock/example-value.js";
import { cli, emittedValidator, genAll, localServer, REPO, type CliRun, type LocalServer } from "../support.js";
import { tsc, writeStrictProject } from "./support.js";

const SCHEMA = path.join(REPO, "test/generator/foreign/openapi-30.yaml");
const AS_31 = path.join(REPO, "test/generator/foreign/openapi-30-as-31.yaml");
const GOLDEN = path.join(REPO, "test/generator/foreign/openapi-30.types.ts.golden");

let run: CliRun & { out: string };
let server: LocalServer;
const seen: { method: string; url: string; type: string; body: Buffer }[] = [];

beforeAll(async () => {
  run = await genAll(SCHEMA);
  server = await localServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      seen.push({
        method: request.method!,
        url: request.url!,
        type: request.headers["content-type"] ?? "",
        body: Buffer.concat(chunks),
      });
      if (request.url === "/pets/7/events") {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end('data: {"type":"fed","grams":20}\n\ndata: {"type":"walked","minutes":null}\n\n');
      } else if (request.url === "/log") {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end("event: line\ndata: started\nid: 1\n\n");
      } else if (request.url === "/pets/7") {
        if (request.method === "PUT") return void response.writeHead(204).end();
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({ id: 7, name: "Rex", kind: null, owner: null, home: { name: "Ann", street: "Elm" } }),
        );
      } else response.writeHead(404).end();
    });
  });
}, 60_000);

afterAll(() => server?.close());

test("gen exits 0; its one warning is the $ref sibling 3.0 ignores, at its line in the file as written", () => {
  expect(run.stderr).not.toMatch(/^error|internal error/m);
  expect(run.code).toBe(0);
  const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning"));
  expect(warnings).toEqual([
    expect.stringMatching(
      /^warning\[types\]: openapi-30\.yaml:78:82: OpenAPI 3\.0 ignores what stands beside a `\$ref`: 1 keyword\(s\) .* \(at #\/components\/schemas\/Pet\/properties\/size\/maxLength\)$/,
    ),
  ]);
});

test("the types equal the committed golden file (UPDATE_GOLDEN=1 rewrites it)", async () => {
  const actual = emitTypes(await loadSchema(SCHEMA, { cwd: REPO }));
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(GOLDEN, actual);
  expect(actual).toBe(readFileSync(GOLDEN, "utf8"));
});

test("the validators accept and refuse what the 3.1 reading says", async () => {
  const pet = await emittedValidator(run.out, "Pet");
  const base = { id: 1, name: "Rex", kind: "cat" };
  expect(pet(base)).toBe(true);
  // nullable beside a type, an enum, a $ref, an allOf (alone and with properties), and x-nullable
  expect(pet({ ...base, tag: null, kind: null, owner: null, vet: null, home: null, legacyCode: null })).toBe(true);
  expect(pet({ ...base, owner: { name: "Ann" }, vet: { name: "Bo" }, home: { name: "Ann", street: "Elm" } })).toBe(
    true,
  );
  expect(pet({ ...base, kind: "cow" })).toBe(false);
  expect(pet({ ...base, owner: {} })).toBe(false); // the $ref still asserts
  expect(pet({ ...base, home: { name: "Ann" } })).toBe(false); // the moved `required` still asserts
  expect(pet({ ...base, home: { name: "Ann", street: "E" } })).toBe(false); // and the moved `minLength`
  expect(pet({ ...base, tag: 3 })).toBe(false);
  // exclusiveMaximum: true beside maximum: 100 is exclusiveMaximum: 100; minimum stays inclusive
  expect([pet({ ...base, id: 99 }), pet({ ...base, id: 100 }), pet({ ...base, id: 0 })]).toEqual([true, false, false]);
  // the pattern's identity escapes (\_) mean the character
  expect([pet({ ...base, name: "Rex_the-Dog" }), pet({ ...base, name: "R3x" })]).toEqual([true, false]);
  // the $ref into the moved `home` schema follows it; the sibling beside the `size` $ref is ignored, as 3.0 says
  expect([pet({ ...base, homeStreet: "Elm" }), pet({ ...base, homeStreet: "E" })]).toEqual([true, false]);
  expect([pet({ ...base, size: "L" }), pet({ ...base, size: "XL" })]).toEqual([true, false]);
  const event = await emittedValidator(run.out, "PetEvent");
  expect([
    event({ type: "fed", grams: 0 }),
    event({ type: "walked", minutes: null }),
    event({ type: "fed" }),
    event({ type: "slept" }),
  ]).toEqual([true, true, false, false]);
});

test("the document read is the 3.1 document: openapi.json equals the 3.1 version's, and diff finds no change between the two", async () => {
  const read = JSON.parse(readFileSync(path.join(run.out, "openapi.json"), "utf8")) as Record<string, unknown>;
  const [as30, as31] = [await loadSchema(SCHEMA), await loadSchema(AS_31)];
  expect(read).toEqual(as31.document);
  expect(read.openapi).toBe("3.1.0");
  expect(diffDocuments(as30.document, as31.document)).toEqual([]);
  const diff = await cli(["diff", path.basename(SCHEMA), path.basename(AS_31)], path.dirname(SCHEMA));
  expect(diff.code).toBe(0);
  expect(diff.stdout).toContain("no changes");
  // Not vacuous: a 3.0 `nullable` dropped is a change diff reports.
  const changed = structuredClone(as31.document) as unknown as {
    components: { schemas: { Pet: { properties: Record<string, unknown> } } };
  };
  changed.components.schemas.Pet.properties.tag = { type: "string" };
  expect(diffDocuments(as30.document, changed as never).map((change) => change.pointer)).toContain(
    "/components/schemas/Pet/properties/tag/type",
  );
});

test("the client: typed events from x-item-schema, plain events without it, a JSON answer with nulls, raw bodies sent as given (real HTTP)", async () => {
  const { ApiClient } = (await import(path.join(run.out, "client.ts"))) as {
    ApiClient: new (options: {
      baseUrl: string;
    }) => {
      watchPet(petId: number): AsyncIterable<unknown>;
      tailLog(): AsyncIterable<unknown>;
      getPet(petId: number): Promise<unknown>;
      putPhoto(petId: number, body: Uint8Array): Promise<undefined>;
    };
  };
  const client = new ApiClient({ baseUrl: server.baseUrl });
  const events: unknown[] = [];
  for await (const event of client.watchPet(7)) events.push(event);
  expect(events).toEqual([
    { type: "fed", grams: 20 },
    { type: "walked", minutes: null },
  ]);
  const lines: unknown[] = [];
  for await (const line of client.tailLog()) lines.push(line);
  expect(lines).toEqual([{ event: "line", data: "started", id: "1" }]);
  expect(await client.getPet(7)).toEqual({
    id: 7,
    name: "Rex",
    kind: null,
    owner: null,
    home: { name: "Ann", street: "Elm" },
  });
  expect(await client.putPhoto(7, new Uint8Array([137, 80, 78, 71]))).toBeUndefined();
  const put = seen.find((request) => request.method === "PUT")!;
  expect([put.url, put.type, [...put.body]]).toEqual(["/pets/7", "image/png", [137, 80, 78, 71]]);
});

test("the mock's example values for the 3.0 reading are valid", async () => {
  const model = await loadSchema(SCHEMA);
  const walked = await emittedValidator(run.out, "Walked");
  const value = exampleValue(model.schemas.Walked);
  expect(walked(value)).toBe(true);
  expect(exampleValue({ ...model.schemas.Walked, required: ["type", "minutes"] })).toMatchObject({ type: "walked" });
});

test("the output and code using it pass tsc --strict; a use that forgets null does not", () => {
  const usage = (line: string): string =>
    [
      'import { ApiClient } from "./client.js";',
      'import type { Pet } from "./types.js";',
      "export async function use(client: ApiClient, pet: Pet): Promise<number> {",
      "  let grams = 0;",
      '  for await (const event of client.watchPet(7)) if (event.type === "fed") grams += event.grams;',
      "  for await (const line of client.tailLog()) grams += line.data.length;",
      line,
      "  return grams;",
      "}",
      "",
    ].join("\n");
  const tsconfig = writeStrictProject(run.out, { include: ["*.ts", "validators/*.ts"] });
  writeFileSync(
    path.join(run.out, "usage.ts"),
    usage("  if (pet.owner !== null && pet.owner !== undefined) grams += pet.owner.name.length;"),
  );
  expect(tsc(tsconfig)).toBe("");
  writeFileSync(
    path.join(run.out, "usage.ts"),
    usage("  if (pet.owner !== undefined) grams += pet.owner.name.length;"),
  );
  expect(tsc(tsconfig)).toMatch(/usage\.ts\(7,\d+\): error TS18047: 'pet\.owner' is possibly 'null'/);
}, 120_000);
