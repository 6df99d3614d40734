/**
 * `generate` (generator/emit/index.ts) starts each emitter once the one
 * before it works or waits, so an emitter waiting for the level thread
 * (the validators, the fixtures) lets the next one work meanwhile. What must
 * not change with that: every emitter's files are there, the error reported
 * is the first failing emitter's in that order, and no emitter starts after
 * one has failed before its first wait.
 */
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/emit/index.js";
import type { EmittedFile, Emitter, LoadedSchema } from "../../generator/model.js";

const model = {
  document: { openapi: "3.1.0", info: { title: "T", version: "1" }, paths: {} },
  schemas: {},
  sourcePath: "schema.yaml",
  hash: "0",
  generatorVersion: "0.0.0",
} as unknown as LoadedSchema;

/** A promise and the function that settles it, so a test decides when an emitter's wait ends. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

const file = (path: string): EmittedFile => ({ path, contents: `export const name = ${JSON.stringify(path)};\n` });

describe("generate", () => {
  it("starts the next emitter while one waits, and keeps the files of both", async () => {
    const { wait, open } = gate();
    const started: string[] = [];
    const emitters: Emitter[] = [
      {
        name: "waits",
        emit: async () => {
          started.push("waits");
          await wait;
          return { files: [file("b.ts")], diagnostics: [] };
        },
      },
      {
        name: "next",
        emit: () => {
          started.push("next");
          // Started while the first still waits: it lets the first go on.
          open();
          return { files: [file("a.ts")], diagnostics: [] };
        },
      },
    ];
    const { files } = await generate(model, emitters);
    expect(started).toEqual(["waits", "next"]);
    expect(files.map((f) => f.path).filter((p) => p.endsWith(".ts"))).toEqual(["a.ts", "b.ts"]);
  });

  it("reports the first failing emitter in emitter order, even when a later one fails first", async () => {
    const { wait, open } = gate();
    const emitters: Emitter[] = [
      {
        name: "first",
        emit: async () => {
          await wait;
          throw new Error("first failed");
        },
      },
      {
        name: "second",
        emit: () => {
          open();
          throw new Error("second failed");
        },
      },
    ];
    await expect(generate(model, emitters)).rejects.toThrow("first failed");
  });

  it("starts no emitter after one that failed before its first wait", async () => {
    const started: string[] = [];
    const emitters: Emitter[] = [
      {
        name: "fails",
        emit: async () => {
          started.push("fails");
          throw new Error("failed at once");
        },
      },
      {
        name: "never",
        emit: () => {
          started.push("never");
          return { files: [], diagnostics: [] };
        },
      },
    ];
    await expect(generate(model, emitters)).rejects.toThrow("failed at once");
    expect(started).toEqual(["fails"]);
  });
  it("hands back each emitter's diagnostics in emitter order, and one context whose level thread every emitter shares", async () => {
    const { wait, open } = gate();
    const threads: unknown[] = [];
    const said = (emitter: string, message: string) => ({ level: "warning" as const, emitter, message });
    const emitters: Emitter[] = [
      {
        name: "first",
        emit: async (_model, context) => {
          threads.push(context.levelThread());
          await wait;
          return { files: [], diagnostics: [said("first", "one"), said("first", "two")] };
        },
      },
      {
        name: "second",
        emit: (_model, context) => {
          threads.push(context.levelThread());
          open();
          return { files: [file("a.ts")], diagnostics: [said("second", "three")] };
        },
      },
    ];
    const { diagnostics } = await generate(model, emitters);
    expect(diagnostics.map((d) => `${d.emitter}: ${d.message}`)).toEqual(["first: one", "first: two", "second: three"]);
    // No worker beside the sources (and no components to compile): none, asked once for both.
    expect(threads).toEqual([undefined, undefined]);
  });
});
