/**
 * A request body whose media type is JSON but not `application/json`
 * (`application/merge-patch+json`, RFC 7396) is sent JSON-encoded with its
 * own media type: it went out as `application/json`, which a server
 * telling a merge patch from a replacement refuses (415) or misreads.
 * Generated from a small document written here, called over real HTTP on
 * 127.0.0.1; an `application/json` body beside it is unchanged.
 */
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { genQuietly, writeTree, localServer, type LocalServer } from "../support.js";

const SCHEMA = `openapi: 3.1.0
info: { title: Patch, version: "1" }
paths:
  /pets/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: string } }
    patch:
      operationId: patchPet
      requestBody:
        required: true
        content:
          application/merge-patch+json:
            schema: { $ref: "#/components/schemas/PetPatch" }
      responses:
        "204": { description: patched }
    put:
      operationId: putPet
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/PetPatch" }
      responses:
        "204": { description: replaced }
components:
  schemas:
    PetPatch:
      type: object
      properties:
        name: { type: [string, "null"] }
`;

interface PatchClient {
  patchPet(id: string, body: { name?: string | null }): Promise<unknown>;
  putPet(id: string, body: { name?: string | null }): Promise<unknown>;
}
let ApiClient: new (options: { baseUrl: string }) => PatchClient;
let server: LocalServer;
let baseUrl = "";
const seen: Array<{ method: string; type: string | undefined; body: string }> = [];

beforeAll(async () => {
  const out = await genQuietly(path.join(writeTree({ "patch.yaml": SCHEMA }), "patch.yaml"));
  ({ ApiClient } = (await import(path.join(out, "client.ts"))) as { ApiClient: typeof ApiClient });
  server = await localServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      seen.push({
        method: request.method!,
        type: request.headers["content-type"],
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(204).end();
    });
  });
  baseUrl = server.baseUrl;
}, 60_000);

afterAll(() => server.close());

test("the merge patch goes JSON-encoded as application/merge-patch+json; the replacement as application/json", async () => {
  const client = new ApiClient({ baseUrl });
  await client.patchPet("p1", { name: null });
  await client.putPet("p1", { name: "Rex" });
  expect(seen).toEqual([
    { method: "PATCH", type: "application/merge-patch+json", body: '{"name":null}' },
    { method: "PUT", type: "application/json", body: '{"name":"Rex"}' },
  ]);
});

test("the merge patch body is still checked against its schema before it is sent", async () => {
  const before = seen.length;
  await expect(new ApiClient({ baseUrl }).patchPet("p1", { name: 7 as never })).rejects.toMatchObject({
    name: "RequestValidationError",
  });
  expect(seen.length).toBe(before);
});
