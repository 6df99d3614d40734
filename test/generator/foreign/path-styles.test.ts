/**
 * Path parameters as OpenAPI writes them (`style` simple, the default,
 * label and matrix, each with or without explode; `content:
 * application/json`): an array went out as `a%2Cb` whatever the style, an
 * object as `%5Bobject%20Object%5D`, and a label or matrix parameter
 * without its `.` or `;name=`. Generated from a small document written
 * here, called over real HTTP on 127.0.0.1; the expected paths are RFC
 * 6570's expansions (the examples of OpenAPI 3.1's "Style Examples"
 * table), every name, key and value URL-encoded and the separators not.
 */
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { genQuietly, writeTree, localServer, type LocalServer } from "../support.js";

const ARRAY = "{ type: array, items: { type: string } }";
const OBJECT = "{ type: object, properties: { R: { type: integer }, G: { type: integer } } }";
const param = (name: string, schema: string, style?: string, explode?: boolean): string =>
  `        - { name: ${name}, in: path, required: true, schema: ${schema}${style ? `, style: ${style}` : ""}${explode !== undefined ? `, explode: ${explode}` : ""} }`;

/** One operation per style: `GET /<name>/{v}` (the value's name is `v` for every one). */
const CASES: Record<string, { schema: string; style?: string; explode?: boolean }> = {
  simpleString: { schema: "{ type: string }" },
  simpleArray: { schema: ARRAY },
  simpleArrayExplode: { schema: ARRAY, explode: true },
  simpleObject: { schema: OBJECT },
  simpleObjectExplode: { schema: OBJECT, explode: true },
  labelString: { schema: "{ type: string }", style: "label" },
  labelArray: { schema: ARRAY, style: "label" },
  labelArrayExplode: { schema: ARRAY, style: "label", explode: true },
  labelObject: { schema: OBJECT, style: "label" },
  labelObjectExplode: { schema: OBJECT, style: "label", explode: true },
  matrixString: { schema: "{ type: string }", style: "matrix" },
  matrixArray: { schema: ARRAY, style: "matrix" },
  matrixArrayExplode: { schema: ARRAY, style: "matrix", explode: true },
  matrixObject: { schema: OBJECT, style: "matrix" },
  matrixObjectExplode: { schema: OBJECT, style: "matrix", explode: true },
  refArray: { schema: '{ $ref: "#/components/schemas/Ids" }' },
};

const SCHEMA = `openapi: 3.1.0
info: { title: Path styles, version: "1" }
paths:
${Object.entries(CASES)
  .map(
    ([name, c]) => `  /${name}/{v}:
    get:
      operationId: ${name}
      parameters:
${param("v", c.schema, c.style, c.explode)}
      responses: { "204": { description: none } }`,
  )
  .join("\n")}
  /json/{v}:
    get:
      operationId: json
      parameters:
        - name: v
          in: path
          required: true
          content: { application/json: { schema: ${OBJECT} } }
      responses: { "204": { description: none } }
components:
  schemas:
    Ids: ${ARRAY}
`;

type Client = Record<string, (value: unknown) => Promise<undefined>>;
let client: Client;
let server: LocalServer;
const seen: string[] = [];

beforeAll(async () => {
  const out = await genQuietly(path.join(writeTree({ "styles.yaml": SCHEMA }), "styles.yaml"));
  const { ApiClient } = (await import(path.join(out, "client.ts"))) as {
    ApiClient: new (options: { baseUrl: string }) => Client;
  };
  server = await localServer((request, response) => {
    seen.push(request.url!);
    response.writeHead(204).end();
  });
  client = new ApiClient({ baseUrl: server.baseUrl });
}, 60_000);

afterAll(() => server.close());

const COLOR = { R: 100, G: 200 };
const LIST = ["blue", "black", "a,b"];

test.each([
  ["simpleString", "a/b c", "a%2Fb%20c"],
  ["simpleArray", LIST, "blue,black,a%2Cb"],
  ["simpleArrayExplode", LIST, "blue,black,a%2Cb"],
  ["simpleObject", COLOR, "R,100,G,200"],
  ["simpleObjectExplode", COLOR, "R=100,G=200"],
  ["labelString", "blue", ".blue"],
  ["labelArray", LIST, ".blue,black,a%2Cb"],
  ["labelArrayExplode", LIST, ".blue.black.a%2Cb"],
  ["labelObject", COLOR, ".R,100,G,200"],
  ["labelObjectExplode", COLOR, ".R=100.G=200"],
  ["matrixString", "blue", ";v=blue"],
  ["matrixArray", LIST, ";v=blue,black,a%2Cb"],
  ["matrixArrayExplode", LIST, ";v=blue;v=black;v=a%2Cb"],
  ["matrixObject", COLOR, ";v=R,100,G,200"],
  ["matrixObjectExplode", COLOR, ";R=100;G=200"],
  ["refArray", ["x", "y"], "x,y"],
  ["json", COLOR, encodeURIComponent(JSON.stringify(COLOR))],
])("%s: %j is written %s in the path", async (operation, value, want) => {
  seen.length = 0;
  await client[operation]!(value);
  expect(seen).toEqual([`/${operation}/${want}`]);
});
