/**
 * Portability: runtime/sse uses only standard web APIs. The bundle must build
 * for a neutral platform and run in a bare JS context that has only the web
 * globals it is allowed to use (no Buffer, process, require, ...).
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runInNewContext } from "node:vm";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { createSseParser } from "../../runtime/sse/index.js";

const dir = fileURLToPath(new URL("../../runtime/sse/", import.meta.url));

describe("portability", () => {
  it("no Node imports, eval or Function constructor in runtime/sse", () => {
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const src = readFileSync(dir + file, "utf8");
      expect(src, file).not.toMatch(/from\s+["']node:|require\(|\beval\(|new Function|\bBuffer\b|\bprocess\./);
    }
  });

  it("bundles for a neutral platform and decodes in a context with only web globals", async () => {
    const out = await build({
      entryPoints: [`${dir}index.ts`],
      bundle: true,
      platform: "neutral",
      format: "iife",
      globalName: "sse",
      write: false,
      logLevel: "silent",
    });
    const code = out.outputFiles[0]!.text;
    const sandbox: Record<string, unknown> = {
      TextDecoder,
      TextEncoder,
      ReadableStream,
      AbortController,
      AbortSignal,
      Promise,
      Uint8Array,
      ArrayBuffer,
      Symbol,
      Object,
      Error,
      TypeError,
      RangeError,
      Number,
      String,
      Math,
      result: undefined,
    };
    runInNewContext(
      `${code}
      const bytes = new TextEncoder().encode("\\uFEFFid: 1\\r\\ndata: héllo\\r\\n\\r\\n");
      const stream = new ReadableStream({ start(c) { c.enqueue(bytes.subarray(0, 9)); c.enqueue(bytes.subarray(9)); c.close(); } });
      result = (async () => { const out = []; for await (const m of sse.parseSse(stream)) out.push(m); return out; })();`,
      sandbox,
    );
    expect(await (sandbox.result as Promise<unknown>)).toEqual([{ event: "message", data: "héllo", id: "1" }]);
  });

  it("accepts byte arrays from another realm (iframe, vm context)", () => {
    const foreign = runInNewContext(`new Uint8Array([100, 97, 116, 97, 58, 32, 120, 10, 10])`) as Uint8Array;
    expect(foreign instanceof Uint8Array).toBe(false);
    const seen: string[] = [];
    createSseParser({ onMessage: (m) => seen.push(m.data) }).feed(foreign);
    expect(seen).toStrictEqual(["x"]);
  });
});
