/**
 * One doctored schema pair per rule and direction: the base document
 * (base-document.ts), patched on both sides by `given` and on the new side
 * by `change` (JSON Patch), must be classified exactly as `expect` says:
 * the whole list of (direction, kind, pointer), nothing more.
 */
import { describe, expect, test } from "vitest";
import type { Direction } from "../../../generator/diff/change.js";
import { diffDocuments } from "../../../generator/diff/diff-documents.js";
import { isVendorAssertion } from "../../../generator/diff/keyword-catalogue.js";
import { assertingKeywords } from "../../../generator/keywords/index.js";
import { baseDocument } from "./base-document.js";
import { applyPatch, type PatchOperation } from "./json-patch.js";

const S = "/components/schemas";
const R = `${S}/ThingRequest/properties`;
const T = `${S}/Thing/properties`;
const POST = "/paths/~1things/post";
const STREAM = "/paths/~1things~1{thingId}~1events";
const ITEM_SCHEMA = `${STREAM}/get/responses/200/content/text~1event-stream/x-item-schema`;

type Row = readonly [Direction, string, string];

interface Case {
  readonly given?: readonly PatchOperation[];
  readonly change: readonly PatchOperation[];
  readonly expect: readonly Row[];
}

const add = (path: string, value: unknown): PatchOperation => ({ op: "add", path, value });
const replace = (path: string, value: unknown): PatchOperation => ({ op: "replace", path, value });
const remove = (path: string): PatchOperation => ({ op: "remove", path });
const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });

const CASES: Record<string, Case> = {
  // ── what the client sends: narrowing breaks clients, widening is additive ──
  "a new required request field breaks clients": {
    change: [add(`${R}/owner`, { type: "string" }), add(`${S}/ThingRequest/required/-`, "owner")],
    expect: [["breaks-clients", "required-property-added", `${R}/owner`]],
  },
  "an optional request field made required breaks clients": {
    change: [add(`${S}/ThingRequest/required/-`, "count")],
    expect: [["breaks-clients", "required-added", `${S}/ThingRequest/required/1`]],
  },
  "a required request field made optional is additive": {
    change: [remove(`${S}/ThingRequest/required/0`)],
    expect: [["additive", "required-removed", `${S}/ThingRequest/required/0`]],
  },
  "a new optional request field is additive": {
    change: [add(`${R}/color`, { type: "string" })],
    expect: [["additive", "property-added", `${R}/color`]],
  },
  "a field removed from an open request passes through unchecked (info)": {
    change: [remove(`${R}/note`)],
    expect: [["info", "property-removed", `${R}/note`]],
  },
  "a field removed from a closed request is now refused: breaks clients": {
    given: [replace(`${S}/ThingRequest/additionalProperties`, false)],
    change: [remove(`${R}/note`)],
    expect: [["breaks-clients", "property-removed", `${R}/note`]],
  },
  "a lower request maxLength breaks clients": {
    change: [replace(`${R}/name/maxLength`, 50)],
    expect: [["breaks-clients", "limit-narrowed", `${R}/name/maxLength`]],
  },
  "a higher request maxLength is additive": {
    change: [replace(`${R}/name/maxLength`, 200)],
    expect: [["additive", "limit-widened", `${R}/name/maxLength`]],
  },
  "a new request limit breaks clients": {
    change: [add(`${R}/code/maxLength`, 8)],
    expect: [["breaks-clients", "limit-added", `${R}/code/maxLength`]],
  },
  "a dropped request limit is additive": {
    change: [remove(`${R}/count/maximum`)],
    expect: [["additive", "limit-removed", `${R}/count/maximum`]],
  },
  "a raised request minimum breaks clients": {
    change: [replace(`${R}/count/minimum`, 1)],
    expect: [["breaks-clients", "limit-narrowed", `${R}/count/minimum`]],
  },
  "a lower request item count breaks clients": {
    change: [replace(`${R}/tags/maxItems`, 3)],
    expect: [["breaks-clients", "limit-narrowed", `${R}/tags/maxItems`]],
  },
  "a lower x-max-utf8-bytes breaks clients": {
    change: [replace(`${R}/note/x-max-utf8-bytes`, 512)],
    expect: [["breaks-clients", "limit-narrowed", `${R}/note/x-max-utf8-bytes`]],
  },
  "a value removed from a request enum breaks clients": {
    change: [replace(`${R}/kind/enum`, ["a"])],
    expect: [["breaks-clients", "enum-value-removed", `${R}/kind/enum`]],
  },
  "a value added to a request enum is additive": {
    change: [replace(`${R}/kind/enum`, ["a", "b", "c"])],
    expect: [["additive", "enum-value-added", `${R}/kind/enum`]],
  },
  "a request type narrowed (null no longer allowed) breaks clients": {
    change: [replace(`${R}/label/type`, "string")],
    expect: [["breaks-clients", "type-narrowed", `${R}/label/type`]],
  },
  "a request type widened is additive": {
    change: [replace(`${R}/name/type`, ["string", "null"])],
    expect: [["additive", "type-widened", `${R}/name/type`]],
  },
  "a request type changed breaks clients": {
    change: [replace(`${R}/count/type`, "string")],
    expect: [["breaks-clients", "type-changed", `${R}/count/type`]],
  },
  "a new request pattern breaks clients": {
    change: [add(`${R}/name/pattern`, "^[A-Z]")],
    expect: [["breaks-clients", "pattern-added", `${R}/name/pattern`]],
  },
  "a dropped request pattern is additive": {
    change: [remove(`${R}/code/pattern`)],
    expect: [["additive", "pattern-removed", `${R}/code/pattern`]],
  },
  "a changed request pattern is a change to review: breaks clients": {
    change: [replace(`${R}/code/pattern`, "^[a-z0-9]+$")],
    expect: [["breaks-clients", "pattern-changed", `${R}/code/pattern`]],
  },
  "a new known value of an additive list is additive": {
    change: [replace(`${R}/mime/x-known-values`, ["text/plain", "image/png"])],
    expect: [["additive", "known-value-added", `${R}/mime/x-known-values`]],
  },
  "a new branch of a request union is additive": {
    change: [add(`${R}/level/oneOf/-`, { type: "boolean" })],
    expect: [["additive", "branch-added", `${R}/level/oneOf/2`]],
  },
  "a branch removed from a request union breaks clients": {
    change: [remove(`${R}/level/oneOf/1`)],
    expect: [["breaks-clients", "branch-removed", `${R}/level/oneOf/1`]],
  },
  "a value added under `not` narrows the request: breaks clients": {
    change: [replace(`${R}/notReserved/not/enum`, ["admin", "root"])],
    expect: [["breaks-clients", "enum-value-added", `${R}/notReserved/not/enum`]],
  },
  "an open request object closed breaks clients": {
    change: [replace(`${S}/ThingRequest/additionalProperties`, false)],
    expect: [["breaks-clients", "schema-forbidden", `${S}/ThingRequest/additionalProperties`]],
  },
  "a closed request object opened is additive": {
    given: [replace(`${S}/ThingRequest/additionalProperties`, false)],
    change: [replace(`${S}/ThingRequest/additionalProperties`, true)],
    expect: [["additive", "schema-allowed", `${S}/ThingRequest/additionalProperties`]],
  },
  "a new allOf condition on a request breaks clients": {
    change: [add(`${S}/ThingRequest/allOf`, [{ required: ["count"] }])],
    expect: [["breaks-clients", "all-of-branch-added", `${S}/ThingRequest/allOf/0`]],
  },
  "a new if/then rule on a request breaks clients": {
    change: [
      add(`${S}/ThingRequest/if`, { properties: { kind: { const: "a" } }, required: ["kind"] }),
      add(`${S}/ThingRequest/then`, { required: ["count"] }),
    ],
    expect: [["breaks-clients", "condition-added", `${S}/ThingRequest/if`]],
  },
  "an x- keyword the validators do not enforce, added to a request, is a change to review": {
    change: [add(`${R}/tags/x-future-rule`, { unique: true })],
    expect: [["breaks-clients", "keyword-added", `${R}/tags/x-future-rule`]],
  },
  "an x- keyword the validators do not enforce, added to a response, is a change to review": {
    change: [add(`${T}/title/x-future-rule`, { unique: true })],
    expect: [["breaks-readers", "keyword-added", `${T}/title/x-future-rule`]],
  },
  "an unknown JSON Schema keyword added is a change to review": {
    change: [add(`${S}/ThingRequest/unevaluatedProperties`, false)],
    expect: [["breaks-clients", "keyword-added", `${S}/ThingRequest/unevaluatedProperties`]],
  },

  "a $ref with assertions beside it: a narrowed sibling breaks clients": {
    given: [
      add(`${S}/Name`, { type: "string", minLength: 1 }),
      replace(`${R}/name`, { $ref: "#/components/schemas/Name", maxLength: 100 }),
    ],
    change: [replace(`${R}/name/maxLength`, 50)],
    expect: [["breaks-clients", "limit-narrowed", `${R}/name/maxLength`]],
  },
  "a $ref with assertions beside it: a narrowed target breaks clients": {
    given: [
      add(`${S}/Name`, { type: "string", minLength: 1 }),
      replace(`${R}/name`, { $ref: "#/components/schemas/Name", maxLength: 100 }),
    ],
    change: [replace(`${S}/Name/minLength`, 2)],
    expect: [["breaks-clients", "limit-narrowed", `${S}/Name/minLength`]],
  },

  "a narrowed items schema breaks clients": {
    change: [add(`${R}/tags/items/maxLength`, 10)],
    expect: [["breaks-clients", "limit-added", `${R}/tags/items/maxLength`]],
  },
  "a retyped tuple position breaks clients": {
    change: [replace(`${R}/pairs/prefixItems/1/type`, "string")],
    expect: [["breaks-clients", "type-changed", `${R}/pairs/prefixItems/1/type`]],
  },
  "a new contains breaks clients": {
    change: [add(`${R}/tags/contains`, { const: "x" })],
    expect: [["breaks-clients", "contains-added", `${R}/tags/contains`]],
  },
  "unique items required breaks clients": {
    change: [add(`${R}/tags/uniqueItems`, true)],
    expect: [["breaks-clients", "unique-items-added", `${R}/tags/uniqueItems`]],
  },
  "narrowed property names break clients": {
    change: [replace(`${R}/meta/propertyNames/maxLength`, 5)],
    expect: [["breaks-clients", "limit-narrowed", `${R}/meta/propertyNames/maxLength`]],
  },
  "a narrowed additionalProperties schema breaks clients": {
    change: [add(`${R}/meta/additionalProperties/maxLength`, 10)],
    expect: [["breaks-clients", "limit-added", `${R}/meta/additionalProperties/maxLength`]],
  },
  "a request property forbidden (false) breaks clients": {
    change: [add(`${R}/legacy`, false)],
    expect: [["breaks-clients", "schema-forbidden", `${R}/legacy`]],
  },
  "a forbidden request property dropped (now allowed) is additive": {
    given: [add(`${R}/legacy`, false)],
    change: [remove(`${R}/legacy`)],
    expect: [["additive", "schema-allowed", `${S}/ThingRequest/additionalProperties`]],
  },
  "new patternProperties break clients": {
    change: [add(`${R}/meta/patternProperties`, { "^x-": { type: "string", maxLength: 3 } })],
    expect: [["breaks-clients", "pattern-property-added", `${R}/meta/patternProperties/^x-`]],
  },
  "a new dependentRequired breaks clients": {
    change: [add(`${S}/ThingRequest/dependentRequired`, { low: ["high"] })],
    expect: [["breaks-clients", "dependent-required-added", `${S}/ThingRequest/dependentRequired/low/0`]],
  },
  "a new dependentSchemas entry breaks clients": {
    change: [add(`${S}/ThingRequest/dependentSchemas`, { low: { required: ["high"] } })],
    expect: [["breaks-clients", "dependent-schema-added", `${S}/ThingRequest/dependentSchemas/low`]],
  },
  "a coarser multipleOf breaks clients": {
    change: [replace(`${R}/step/multipleOf`, 1)],
    expect: [["breaks-clients", "limit-narrowed", `${R}/step/multipleOf`]],
  },
  "a lower x-max-base64-bytes-total breaks clients": {
    change: [replace(`${R}/files/x-max-base64-bytes-total/max`, 500)],
    expect: [["breaks-clients", "limit-narrowed", `${R}/files/x-max-base64-bytes-total/max`]],
  },
  "x-max-base64-bytes-total over other strings is a change to review": {
    change: [replace(`${R}/files/x-max-base64-bytes-total/path`, ["*", "name"])],
    expect: [["breaks-clients", "limit-changed", `${R}/files/x-max-base64-bytes-total`]],
  },
  "a new x-max-json-bytes breaks clients": {
    change: [add(`${R}/meta/x-max-json-bytes`, 4096)],
    expect: [["breaks-clients", "limit-added", `${R}/meta/x-max-json-bytes`]],
  },
  "a new x-greater-than pair breaks clients": {
    change: [add(`${S}/ThingRequest/x-greater-than`, [{ property: "high", than: "low" }])],
    expect: [["breaks-clients", "constraint-added", `${S}/ThingRequest/x-greater-than/0`]],
  },
  "a dropped x-last-non-system-role is additive": {
    change: [remove(`${R}/messages/x-last-non-system-role`)],
    expect: [["additive", "constraint-removed", `${R}/messages/x-last-non-system-role`]],
  },
  "oneOf relaxed to anyOf is additive": {
    change: [
      remove(`${R}/level/oneOf`),
      add(`${R}/level/anyOf`, [
        { type: "string", enum: ["low", "high"] },
        { type: "integer", minimum: 0 },
      ]),
    ],
    expect: [["additive", "one-of-became-any-of", `${R}/level/anyOf`]],
  },
  "a new oneOf on a request breaks clients": {
    change: [add(`${R}/code/oneOf`, [{ minLength: 2 }, { maxLength: 0 }])],
    expect: [["breaks-clients", "one-of-added", `${R}/code/oneOf`]],
  },
  "a new not on a request breaks clients": {
    change: [add(`${R}/code/not`, { const: "root" })],
    expect: [["breaks-clients", "not-added", `${R}/code/not`]],
  },
  "a changed if condition is a change to review": {
    given: [add(`${S}/ThingRequest/if`, { required: ["low"] }), add(`${S}/ThingRequest/then`, { required: ["high"] })],
    change: [replace(`${S}/ThingRequest/if`, { required: ["step"] })],
    expect: [["breaks-clients", "condition-changed", `${S}/ThingRequest/if`]],
  },
  "a changed unknown keyword is a change to review": {
    given: [add(`${S}/ThingRequest/unevaluatedProperties`, false)],
    change: [replace(`${S}/ThingRequest/unevaluatedProperties`, { type: "string" })],
    expect: [["breaks-clients", "keyword-changed", `${S}/ThingRequest/unevaluatedProperties`]],
  },

  // ── discriminated unions: matched by tag value; Shape is sent and read ──
  "a removed variant breaks clients (request) and readers (response)": {
    change: [remove(`${S}/Shape/oneOf/1`), remove(`${S}/Shape/discriminator/mapping/square`)],
    expect: [
      ["breaks-clients", "variant-removed", `${S}/Shape/oneOf/1`],
      ["breaks-readers", "variant-removed", `${S}/Shape/oneOf/1`],
    ],
  },
  "a new variant of a closed union is additive to send and breaks readers": {
    change: [
      add(`${S}/Triangle`, { type: "object", required: ["kind"], properties: { kind: { const: "triangle" } } }),
      add(`${S}/Shape/oneOf/-`, ref("Triangle")),
      add(`${S}/Shape/discriminator/mapping/triangle`, "#/components/schemas/Triangle"),
    ],
    expect: [
      ["breaks-readers", "variant-added", `${S}/Shape/oneOf/2`],
      ["additive", "variant-added", `${S}/Shape/oneOf/2`],
    ],
  },
  "a changed discriminator property is a change to review on both sides": {
    change: [replace(`${S}/Shape/discriminator/propertyName`, "shape")],
    expect: [
      ["breaks-clients", "discriminator-changed", `${S}/Shape/discriminator/propertyName`],
      ["breaks-readers", "discriminator-changed", `${S}/Shape/discriminator/propertyName`],
    ],
  },
  "variants reordered are no change": {
    change: [replace(`${S}/Shape/oneOf`, [ref("Square"), ref("Circle")])],
    expect: [],
  },
  "a component renamed with the same content is no change": {
    change: [
      add(`${S}/Round`, baseComponent("Circle")),
      replace(`${S}/Shape/oneOf/0`, ref("Round")),
      replace(`${S}/Shape/discriminator/mapping/circle`, "#/components/schemas/Round"),
      remove(`${S}/Circle`),
    ],
    expect: [],
  },

  // ── parameters, request bodies, the route table ──
  "a new required parameter breaks clients": {
    change: [add(`${POST}/parameters/-`, { name: "region", in: "query", required: true, schema: { type: "string" } })],
    expect: [["breaks-clients", "required-parameter-added", `${POST}/parameters/2`]],
  },
  "a new optional parameter is additive": {
    change: [add(`${POST}/parameters/-`, { name: "region", in: "query", schema: { type: "string" } })],
    expect: [["additive", "parameter-added", `${POST}/parameters/2`]],
  },
  "a parameter made required breaks clients": {
    change: [replace(`${POST}/parameters/0/required`, true)],
    expect: [["breaks-clients", "parameter-became-required", `${POST}/parameters/0/required`]],
  },
  "a removed parameter is info": {
    change: [remove(`${POST}/parameters/1`)],
    expect: [["info", "parameter-removed", `${POST}/parameters/1`]],
  },
  "a narrowed parameter schema breaks clients": {
    change: [replace(`${POST}/parameters/0/schema/maximum`, 50)],
    expect: [["breaks-clients", "limit-narrowed", `${POST}/parameters/0/schema/maximum`]],
  },
  "a header parameter matched case-insensitively is no change": {
    change: [replace(`${POST}/parameters/1/name`, "x-trace")],
    expect: [],
  },
  "a parameter made optional is additive": {
    given: [replace(`${POST}/parameters/0/required`, true)],
    change: [replace(`${POST}/parameters/0/required`, false)],
    expect: [["additive", "parameter-became-optional", `${POST}/parameters/0/required`]],
  },
  "a new optional request body is additive, a dropped one info": {
    change: [
      add(`${STREAM}/get/requestBody`, { content: { "application/json": { schema: { type: "object" } } } }),
      remove(`${POST}/requestBody`),
    ],
    expect: [
      ["additive", "request-body-added", `${STREAM}/get/requestBody`],
      ["info", "request-body-removed", `${POST}/requestBody`],
    ],
  },
  "a request body made required breaks clients": {
    given: [replace(`${POST}/requestBody/required`, false)],
    change: [replace(`${POST}/requestBody/required`, true)],
    expect: [["breaks-clients", "request-body-became-required", `${POST}/requestBody/required`]],
  },
  "a request media type removed breaks clients, one added is additive": {
    change: [
      add(`${POST}/requestBody/content/application~1cbor`, { schema: ref("ThingRequest") }),
      remove(`${POST}/requestBody/content/application~1json`),
    ],
    expect: [
      ["breaks-clients", "media-type-removed", `${POST}/requestBody/content/application~1json`],
      ["additive", "media-type-added", `${POST}/requestBody/content/application~1cbor`],
    ],
  },
  "a removed operation breaks clients": {
    change: [remove(STREAM)],
    expect: [["breaks-clients", "operation-removed", `${STREAM}/get`]],
  },
  "a new operation is additive": {
    change: [
      add("/paths/~1things/get", { operationId: "listThings", responses: { "200": { description: "Things." } } }),
    ],
    expect: [["additive", "operation-added", "/paths/~1things/get"]],
  },
  "a renamed operationId is info": {
    change: [replace(`${POST}/operationId`, "makeThing")],
    expect: [["info", "operation-id-renamed", `${POST}/operationId`]],
  },
  "a renamed path parameter is the same route (info)": {
    change: [add("/paths/~1things~1{id}~1events", renamedStreamPath()), remove(STREAM)],
    expect: [["info", "path-parameter-renamed", "/paths/~1things~1{id}~1events/parameters/0"]],
  },
  "a deprecated operation is info": {
    change: [add(`${POST}/deprecated`, true)],
    expect: [["info", "operation-deprecated", `${POST}/deprecated`]],
  },
  "a new required scope breaks clients": {
    change: [add(`${POST}/x-required-scopes/-`, "things:admin")],
    expect: [["breaks-clients", "scope-added", `${POST}/x-required-scopes`]],
  },

  // ── what the client reads: losing a promise or widening breaks readers ──
  "a dropped scope is additive": {
    change: [replace(`${POST}/x-required-scopes`, [])],
    expect: [["additive", "scope-removed", `${POST}/x-required-scopes`]],
  },
  "a removed optional response field breaks readers": {
    change: [remove(`${T}/title`)],
    expect: [["breaks-readers", "property-removed", `${T}/title`]],
  },
  "a removed required response field breaks readers (one finding)": {
    change: [remove(`${T}/status`), remove(`${S}/Thing/required/1`)],
    expect: [["breaks-readers", "property-removed", `${T}/status`]],
  },
  "a retyped response field breaks readers": {
    change: [replace(`${T}/size/type`, "string")],
    expect: [["breaks-readers", "type-changed", `${T}/size/type`]],
  },
  "a widened response type breaks readers": {
    change: [replace(`${T}/size/type`, "number")],
    expect: [["breaks-readers", "type-widened", `${T}/size/type`]],
  },
  "a narrowed response type is info": {
    change: [replace(`${T}/label/type`, "string")],
    expect: [["info", "type-narrowed", `${T}/label/type`]],
  },
  "a response field no longer required breaks readers": {
    change: [remove(`${S}/Thing/required/0`)],
    expect: [["breaks-readers", "required-removed", `${S}/Thing/required/0`]],
  },
  "a new response field, required or optional, is additive": {
    change: [
      add(`${T}/createdAt`, { type: "string" }),
      add(`${S}/Thing/required/-`, "createdAt"),
      add(`${T}/updatedAt`, { type: "string" }),
    ],
    expect: [
      ["additive", "property-added", `${T}/createdAt`],
      ["additive", "property-added", `${T}/updatedAt`],
    ],
  },
  "a narrowed response enum breaks readers": {
    change: [replace(`${T}/status/enum`, ["active"])],
    expect: [["breaks-readers", "enum-value-removed", `${T}/status/enum`]],
  },
  "a widened closed response enum breaks readers": {
    change: [replace(`${T}/status/enum`, ["active", "ended", "paused"])],
    expect: [["breaks-readers", "enum-value-added", `${T}/status/enum`]],
  },
  "a closed response enum made additive breaks readers once, its known values are additive": {
    change: [replace(`${T}/status`, { type: "string", "x-known-values": ["active", "ended"] })],
    expect: [
      ["breaks-readers", "enum-removed", `${T}/status/enum`],
      ["additive", "known-value-added", `${T}/status/x-known-values`],
    ],
  },
  "a new value of an additive response list is additive": {
    change: [replace(`${T}/phase/x-known-values`, ["one", "two", "three"])],
    expect: [["additive", "known-value-added", `${T}/phase/x-known-values`]],
  },
  "a value dropped from an additive response list is info": {
    change: [replace(`${T}/phase/x-known-values`, ["one"])],
    expect: [["info", "known-value-removed", `${T}/phase/x-known-values`]],
  },
  "a narrowed response limit is info": {
    change: [replace(`${T}/title/maxLength`, 100)],
    expect: [["info", "limit-narrowed", `${T}/title/maxLength`]],
  },
  "a widened response limit breaks readers": {
    change: [replace(`${T}/title/maxLength`, 300)],
    expect: [["breaks-readers", "limit-widened", `${T}/title/maxLength`]],
  },
  "a new field on a closed response object breaks readers": {
    given: [add(`${S}/Thing/additionalProperties`, false)],
    change: [add(`${T}/extra`, { type: "string" })],
    expect: [["breaks-readers", "property-added", `${T}/extra`]],
  },
  "a removed response header breaks readers, a new one is additive": {
    change: [
      remove(`${POST}/responses/201/headers/Retry-After`),
      add(`${POST}/responses/201/headers/X-Rate`, { schema: { type: "integer" } }),
    ],
    expect: [
      ["breaks-readers", "header-removed", `${POST}/responses/201/headers/Retry-After`],
      ["additive", "header-added", `${POST}/responses/201/headers/X-Rate`],
    ],
  },
  "a response header no longer required breaks readers": {
    given: [add(`${POST}/responses/201/headers/Retry-After/required`, true)],
    change: [replace(`${POST}/responses/201/headers/Retry-After/required`, false)],
    expect: [["breaks-readers", "header-became-optional", `${POST}/responses/201/headers/Retry-After/required`]],
  },
  "a widened response header schema breaks readers": {
    change: [remove(`${POST}/responses/201/headers/Retry-After/schema/minimum`)],
    expect: [["breaks-readers", "limit-removed", `${POST}/responses/201/headers/Retry-After/schema/minimum`]],
  },
  "a new response status is additive, a dropped one info": {
    change: [add(`${POST}/responses/202`, { description: "Accepted." }), remove(`${POST}/responses/400`)],
    expect: [
      ["additive", "response-added", `${POST}/responses/202`],
      ["info", "response-removed", `${POST}/responses/400`],
    ],
  },
  "a removed response media type breaks readers": {
    change: [remove(`${POST}/responses/201/content`)],
    expect: [["breaks-readers", "media-type-removed", `${POST}/responses/201/content/application~1json`]],
  },
  "a change inside a recursive schema is found once": {
    change: [replace(`${S}/TreeNode/properties/value/type`, "integer")],
    expect: [["breaks-readers", "type-changed", `${S}/TreeNode/properties/value/type`]],
  },

  // ── the event stream's item schema: an open union ──
  "a new event type is additive (unknown types pass through)": {
    change: [
      add(`${S}/PingEvent`, {
        type: "object",
        required: ["seq", "type", "data"],
        properties: { seq: { type: "integer" }, type: { const: "ping" }, data: {} },
      }),
      add(`${S}/KnownEvent/oneOf/-`, ref("PingEvent")),
      add(`${S}/KnownEvent/discriminator/mapping/ping`, "#/components/schemas/PingEvent"),
      add(`${S}/Event/if/properties/type/enum/-`, "ping"),
      add(`${S}/UnknownEvent/properties/type/not/enum/-`, "ping"),
    ],
    expect: [["additive", "variant-added", `${S}/KnownEvent/oneOf/2`]],
  },
  "a removed event type breaks readers": {
    change: [
      remove(`${S}/KnownEvent/oneOf/1`),
      remove(`${S}/KnownEvent/discriminator/mapping/delta`),
      remove(`${S}/Event/if/properties/type/enum/1`),
      remove(`${S}/UnknownEvent/properties/type/not/enum/1`),
    ],
    expect: [["breaks-readers", "variant-removed", `${S}/KnownEvent/oneOf/1`]],
  },
  "a removed event field breaks readers": {
    change: [remove(`${S}/DeltaData/properties/phase`)],
    expect: [["breaks-readers", "property-removed", `${S}/DeltaData/properties/phase`]],
  },
  "a retyped event field breaks readers": {
    change: [replace(`${S}/DeltaData/properties/text/type`, "integer")],
    expect: [["breaks-readers", "type-changed", `${S}/DeltaData/properties/text/type`]],
  },
  "a narrowed event enum breaks readers": {
    change: [replace(`${S}/DeltaData/properties/phase/enum`, ["final"])],
    expect: [["breaks-readers", "enum-value-removed", `${S}/DeltaData/properties/phase/enum`]],
  },
  "a new optional event field is additive": {
    change: [add(`${S}/DeltaData/properties/index`, { type: "integer" })],
    expect: [["additive", "property-added", `${S}/DeltaData/properties/index`]],
  },
  "a removed item schema breaks readers": {
    change: [remove(ITEM_SCHEMA)],
    expect: [["breaks-readers", "item-schema-removed", ITEM_SCHEMA]],
  },
  "a new item schema is additive": {
    given: [remove(ITEM_SCHEMA)],
    change: [add(ITEM_SCHEMA, ref("Event"))],
    expect: [["additive", "item-schema-added", ITEM_SCHEMA]],
  },
  "an event variant that becomes terminal (x-terminal) is a change to review for readers": {
    change: [add(`${S}/StartedEvent/x-terminal`, true)],
    expect: [["breaks-readers", "keyword-added", `${S}/StartedEvent/x-terminal`]],
  },
  "OpenAPI 3.2's itemSchema is followed like x-item-schema": {
    given: [
      remove(ITEM_SCHEMA),
      add(`${STREAM}/get/responses/200/content/text~1event-stream/itemSchema`, ref("Event")),
    ],
    change: [remove(`${S}/DeltaData/properties/phase`)],
    expect: [["breaks-readers", "property-removed", `${S}/DeltaData/properties/phase`]],
  },

  // ── annotations ──
  "a new protocol version is info": {
    change: [replace("/info/x-protocol-version", "2026-10")],
    expect: [["info", "protocol-version-changed", "/info/x-protocol-version"]],
  },
  "a changed format is info": {
    change: [add(`${T}/id/format`, "uuid")],
    expect: [["info", "format-changed", `${T}/id/format`]],
  },
  "a changed description is no change": {
    change: [add(`${T}/id/description`, "The thing's id."), add(`${R}/name/description`, "A name.")],
    expect: [],
  },
};

function baseComponent(name: string): unknown {
  return (baseDocument() as { components: { schemas: Record<string, unknown> } }).components.schemas[name];
}

/** The stream route with its path parameter named `id` instead of `thingId`. */
function renamedStreamPath(): unknown {
  const item = structuredClone(
    (baseDocument() as { paths: Record<string, { parameters: Array<{ name: string }> }> }).paths[
      "/things/{thingId}/events"
    ]!,
  );
  item.parameters[0]!.name = "id";
  return item;
}

function rows(caseDefinition: Case): Row[] {
  const old = applyPatch(baseDocument(), caseDefinition.given ?? []);
  const next = applyPatch(old, caseDefinition.change);
  return diffDocuments(old, next).map((change) => [change.direction, change.kind, change.pointer] as const);
}

describe("mantyx-wire diff: classification of doctored schema pairs", () => {
  test.each(Object.entries(CASES))("%s", (_name, caseDefinition) => {
    expect(rows(caseDefinition)).toEqual(caseDefinition.expect);
  });

  test("a $ref that resolves to nothing is an error naming it, never a silent pass (the CLI's loader refuses such documents first)", () => {
    const dangling = applyPatch(baseDocument(), [replace(`${T}/tree`, { $ref: "#/components/schemas/Nowhere" })]);
    expect(() => diffDocuments(baseDocument(), dangling)).toThrow(
      'the $ref "#/components/schemas/Nowhere" at /components/schemas/Thing/properties/tree resolves to nothing',
    );
  });

  test("a loop of bare $refs terminates", () => {
    const loop = applyPatch(baseDocument(), [
      add(`${S}/LoopA`, ref("LoopB")),
      add(`${S}/LoopB`, ref("LoopA")),
      replace(`${T}/tree`, ref("LoopA")),
    ]);
    expect(diffDocuments(loop, loop)).toEqual([]);
  });

  // What the generated validators enforce (generator/keywords) narrows when added: a request breaks clients, a response only learns more.
  const ASSERTING = assertingKeywords.flatMap((definition) => [definition.keyword].flat());
  const SAMPLE_VALUE: Record<string, unknown> = { "x-greater-than": [{ property: "high", than: "low" }] };
  test.each(ASSERTING)(
    "the enforced vendor keyword %s, added, breaks clients in a request and is info in a response",
    (keyword) => {
      const value = SAMPLE_VALUE[keyword] ?? 1;
      const request = rows({ change: [add(`${S}/ThingRequest/${keyword}`, value)], expect: [] });
      const response = rows({ change: [add(`${S}/Thing/${keyword}`, value)], expect: [] });
      expect(request).toHaveLength(1);
      expect(request[0]![0]).toBe("breaks-clients");
      expect(response).toHaveLength(1);
      expect(response[0]![0]).toBe("info");
    },
  );

  test("the enforced vendor keywords are the generator's registry: annotations and unknown x- keywords are not", () => {
    expect(ASSERTING.length).toBeGreaterThan(0);
    for (const keyword of ASSERTING) expect(isVendorAssertion(keyword), keyword).toBe(true);
    for (const keyword of ["x-known-values", "x-terminal", "x-future-rule"])
      expect(isVendorAssertion(keyword), keyword).toBe(false);
  });

  test("the base document against itself is no change", () => {
    expect(diffDocuments(baseDocument(), baseDocument())).toEqual([]);
  });

  test("a breaking change is found the same way from the other direction: the old document as the new one swaps narrowing and widening", () => {
    const narrowed = applyPatch(baseDocument(), [replace(`${R}/name/maxLength`, 50)]);
    expect(diffDocuments(narrowed, baseDocument()).map((change) => [change.direction, change.kind])).toEqual([
      ["additive", "limit-widened"],
    ]);
  });

  test("each finding says where it was reached from and carries the old and new values", () => {
    const next = applyPatch(baseDocument(), [replace(`${R}/name/maxLength`, 50)]);
    expect(diffDocuments(baseDocument(), next)).toEqual([
      {
        direction: "breaks-clients",
        kind: "limit-narrowed",
        pointer: `${R}/name/maxLength`,
        old: 100,
        new: 50,
        via: "createThing request body",
      },
    ]);
  });
});
