/**
 * Names from documents written elsewhere: the method-name rule for
 * operations without an identifier operationId, component names that are no
 * identifiers, components that share a name (renamed by a fixed rule, with a
 * warning at file:line:col), and operations on one method name, likewise
 * (never "internal error").
 */
import { describe, expect, test } from "vitest";
import { openApiJsonEmitter } from "../../../generator/emit/index.js";
import { methodNameOf } from "../../../generator/emit/operation-names.js";
import { typesEmitter } from "../../../generator/emit/types.js";
import { validatorsEmitter } from "../../../generator/emit/validators.js";
import { validatorFile, validatorName } from "../../../generator/emit/validators/names.js";
import { cli, readTree, tempDir, writeTree } from "../support.js";

describe("client method names (schema/CONVENTIONS.md, Names)", () => {
  const op = (operationId?: string) => (operationId === undefined ? {} : { operationId });
  test.each([
    ["an identifier operationId is kept", "get", "/a", "listStations", "listStations"],
    ["snake_case and $ are identifier characters: kept", "get", "/a", "get_stations$", "get_stations$"],
    ["kebab-case becomes camelCase", "get", "/a", "get-stations", "getStations"],
    ["dots and spaces too", "post", "/a", "stations.create new", "stationsCreateNew"],
    ["a leading digit gets an underscore", "post", "/a", "2fa-setup", "_2faSetup"],
    [
      "no operationId: method + path segments, a parameter as By<Name>",
      "get",
      "/stations/{station_id}/departures",
      undefined,
      "getStationsByStation_idDepartures",
    ],
    [
      "no operationId, kebab segments",
      "delete",
      "/bookings/{bookingId}/payment-intents",
      undefined,
      "deleteBookingsByBookingIdPaymentIntents",
    ],
    ["no operationId at the root", "get", "/", undefined, "get"],
    ["an operationId of only punctuation counts as none", "put", "/x", "--", "putX"],
    ["constructor would replace the class's constructor", "get", "/a", "constructor", "constructor_"],
    ["__proto__ would set the operation table's prototype", "get", "/a", "__proto__", "__proto___"],
    ["then would make the client a thenable", "get", "/a", "then", "then_"],
  ])("%s", (_name, method, path, operationId, want) => {
    expect(methodNameOf({ method: method as "get", path, op: op(operationId) as never })).toBe(want);
  });
});

describe("component names that are no identifiers", () => {
  test.each([
    ["Links-Booking", "validateLinksBooking", "links-booking"],
    ["v1.Thing", "validateV1Thing", "v1-thing"],
    ["snake_case_name", "validatesnake_case_name", "snake_case_name"],
    ["Price$USD", "validatePrice$USD", "price-usd"],
    ["2xxResponse", "validate_2xxResponse", "_2xx-response"],
  ])("%s -> %s in validators/%s.js", (component, name, file) => {
    expect(validatorName(component)).toBe(name);
    expect(validatorFile(component)).toBe(file);
  });
});

const EMITTERS = [openApiJsonEmitter, typesEmitter, validatorsEmitter];

function schemaWith(components: string, paths = "{}"): string {
  return `openapi: 3.1.0\ninfo:\n  title: T\n  version: "1"\npaths: ${paths}\ncomponents:\n  schemas:\n${components}`;
}

describe("components that share a name get two, with a warning naming both places (generator/emit/component-names.ts)", () => {
  test.each([
    [
      "two components, one type name (Links-Booking and LinksBooking)",
      schemaWith("    Links-Booking:\n      type: object\n    LinksBooking:\n      type: string\n"),
      {
        "types.ts": ["export type LinksBooking = string;", "export interface LinksBooking_2 {"],
        files: ["links-booking.js", "links-booking_2.js"],
      },
      [
        "schema.yaml:8:5",
        'also those of component "LinksBooking"',
        "it is the type LinksBooking_2, validated by validateLinksBooking_2 in validators/links-booking_2.js",
      ],
    ],
    [
      "two components, one validator file on a case-insensitive file system (ABTest, AbTest)",
      schemaWith("    ABTest:\n      type: object\n    AbTest:\n      type: string\n"),
      {
        "types.ts": ["export interface ABTest {", "export type AbTest = string;"],
        files: ["ab-test.js", "ab-test-2.js"],
      },
      [
        "schema.yaml:10:5",
        'also those of component "ABTest"',
        "it is the type AbTest, validated by validateAbTest in validators/ab-test-2.js",
      ],
    ],
    [
      "a component whose validator file is the generator's own (Index)",
      schemaWith("    Index:\n      type: object\n"),
      { "types.ts": ["export interface Index {"], files: ["index-2.js"] },
      [
        "schema.yaml:8:5",
        "validators/index.js, is the generator's own index",
        "validated by validateIndex in validators/index-2.js",
      ],
    ],
  ])("%s", async (_name, schema, want, warning) => {
    const dir = writeTree({ "schema.yaml": schema });
    const out = tempDir();
    const run = await cli(["gen", "--schema", "schema.yaml", "--out", out], dir, EMITTERS);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("error[");
    expect(run.stderr.match(/^warning\[types\]/gm)).toHaveLength(1);
    for (const text of warning) expect(run.stderr).toContain(text);
    const tree = readTree(out);
    for (const text of want["types.ts"]) expect(tree.get("types.ts")).toContain(text);
    const files = [...tree.keys()].filter((f) => /^validators\/[^/]*\.js$/.test(f) && f !== "validators/index.js");
    expect(files.map((f) => f.slice("validators/".length)).sort()).toEqual([...want.files].sort());
    // One file per path ignoring case, and the index re-exports each validator from its own file.
    expect(new Set([...tree.keys()].map((f) => f.toLowerCase())).size).toBe(tree.size);
    for (const file of want.files) expect(tree.get("validators/index.js")).toContain(`from "./${file}";`);
  });

  test("two operations on one method name (an operationId and a derived name): the operationId keeps it, the other is <name>_2, with a warning naming both", async () => {
    const { clientEmitter } = await import("../../../generator/emit/client.js");
    const paths = [
      "",
      "  /stations:",
      "    get:",
      "      responses: { '204': { description: none } }",
      "    post:",
      "      operationId: getStations",
      "      responses: { '204': { description: none } }",
    ].join("\n");
    const dir = writeTree({ "schema.yaml": schemaWith("    A:\n      type: object\n", paths) });
    const out = tempDir();
    const run = await cli(["gen", "--schema", "schema.yaml", "--out", out], dir, [...EMITTERS, clientEmitter]);
    expect(run.stderr).not.toContain("error[");
    expect(run.stderr).not.toContain("internal error");
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'warning[client]: schema.yaml:7:5: this operation\'s method name getStations is also that of POST /stations (operationId "getStations"); it is getStations_2',
    );
    const tree = readTree(out);
    expect(tree.get("operations.ts")).toMatch(
      /^export const getStations: \(client: ApiCore, options\?: ApiCallOptions\) => Promise<undefined> = \/\* @__PURE__ \*\/ operation\("getStations", \{ method: "POST"/m,
    );
    expect(tree.get("operations.ts")).toMatch(
      /^export const getStations_2: \(client: ApiCore, options\?: ApiCallOptions\) => Promise<undefined> = \/\* @__PURE__ \*\/ operation\("getStations_2", \{ method: "GET"/m,
    );
  });

  test("the operation names do not depend on the order of the document", async () => {
    const { methodNames } = await import("../../../generator/emit/operation-names.js");
    const entry = (method: "get" | "post", path: string, operationId?: string) => ({
      method,
      path,
      op: operationId === undefined ? {} : { operationId },
      at: ["paths", path, method],
    });
    const a = entry("get", "/users");
    const b = entry("get", "/users/~");
    const c = entry("post", "/x", "get-users");
    const forward = methodNames([a, b, c] as never[]) as Map<unknown, string>;
    const backward = methodNames([c, b, a] as never[]) as Map<unknown, string>;
    expect([forward.get(a), forward.get(b), forward.get(c)]).toEqual(["getUsers", "getUsers_2", "getUsers_3"]);
    expect([backward.get(a), backward.get(b), backward.get(c)]).toEqual(["getUsers", "getUsers_2", "getUsers_3"]);
  });

  test("Links-Booking alone is fine: type LinksBooking, validateLinksBooking in validators/links-booking.js", async () => {
    const dir = writeTree({
      "schema.yaml": schemaWith(
        "    Links-Booking:\n      type: object\n      properties:\n        href: { type: string }\n",
      ),
    });
    const out = tempDir();
    const run = await cli(["gen", "--schema", "schema.yaml", "--out", out], dir, EMITTERS);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const tree = readTree(out);
    expect(tree.get("types.ts")).toContain("export interface LinksBooking {");
    expect(tree.get("validators/links-booking.d.ts")).toContain(
      "export declare function validateLinksBooking(data: unknown): data is LinksBooking;",
    );
    expect(tree.get("validators/index.js")).toContain('export { validateLinksBooking } from "./links-booking.js";');
    // The module the title names defines it (not only the index re-exporting it).
    expect(tree.get("validators/links-booking.js")).toMatch(/^export const validateLinksBooking = /m);
  });
});
