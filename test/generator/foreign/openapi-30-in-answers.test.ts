/**
 * OpenAPI 3.0 leftovers (`nullable: true`, a keyword of no dialect such as
 * `faker`) in a schema an operation answers with: the receive-level
 * validator's keyword rule did not know them, so `gen` exited 2 with
 * error[unsupported-schema] "has no validation level" (Resend's 3.1.2
 * description, github.com/resend/resend-openapi `resend.yaml`, whose
 * answers carry ten `nullable`s). They are annotations there as in every
 * other validator: gen exits 0, and the receive level accepts the `null`
 * the loader added to the type.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { genAll, writeTree } from "../support.js";

const SCHEMA = `openapi: 3.1.2
info: { title: Answers, version: "1" }
paths:
  /mails/{id}:
    get:
      operationId: getMail
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: the mail
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Mail" }
components:
  schemas:
    Mail:
      type: object
      required: [subject]
      properties:
        subject: { type: string, nullable: true }
        count: { type: integer, faker: number.int }
`;

test("gen exits 0 and the receive-level validator reads nullable and an unknown keyword as annotations", async () => {
  const run = await genAll(path.join(writeTree({ "answers.yaml": SCHEMA }), "answers.yaml"));
  const { out } = run;
  expect(run.stderr).not.toMatch(/^error|internal error/m);
  expect(run.code).toBe(0);
  const { validateMailReceive: validate } = (await import(
    pathToFileURL(path.join(out, "validators", "mail.receive.js")).href
  )) as { validateMailReceive: (data: unknown) => boolean };
  expect([
    validate({ subject: null }),
    validate({ subject: "hi", count: 2 }),
    validate({ subject: 3 }),
    validate({}),
  ]).toEqual([true, true, false, false]);
});
