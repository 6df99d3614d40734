/** runtime/jsonl: JSON lines split across chunks, CRLF, blank lines, errors that never quote the line, early stop. */
import { describe, expect, test } from "vitest";
import { isJsonLinesError, parseJsonLines, type JsonLinesError } from "../../runtime/jsonl/index.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function streamOf(chunks: readonly (string | Uint8Array)[], onCancel?: () => void): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) {
        const chunk = chunks[i++]!;
        controller.enqueue(typeof chunk === "string" ? bytes(chunk) : chunk);
      } else controller.close();
    },
    cancel: () => onCancel?.(),
  });
}

async function collect(chunks: readonly (string | Uint8Array)[], options = {}): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const value of parseJsonLines(streamOf(chunks), options)) out.push(value);
  return out;
}

describe("parseJsonLines", () => {
  const euro = bytes('{"p":"€"}\n');
  test.each([
    ["one value per line", ['{"a":1}\n{"a":2}\n'], [{ a: 1 }, { a: 2 }]],
    ["a line split across chunks, at every byte", ["{", '"a"', ":", "1}", "\n", "[2]\n"], [{ a: 1 }, [2]]],
    ["CRLF line ends, the CR split from its LF", ['{"a":1}\r', '\n"x"\r\n'], [{ a: 1 }, "x"]],
    ["blank lines (and whitespace-only ones) are skipped", ['\n{"a":1}\n\n  \r\n2\n'], [{ a: 1 }, 2]],
    ["the last line needs no LF", ['{"a":1}\n{"b":2}'], [{ a: 1 }, { b: 2 }]],
    ["a multi-byte character split between chunks", [euro.subarray(0, 7), euro.subarray(7)], [{ p: "€" }]],
  ])("%s", async (_name, chunks, want) => {
    expect(await collect(chunks)).toEqual(want);
  });

  test("a line that is not JSON is a JsonLinesError naming its number and size, not its text; values before it are delivered", async () => {
    const seen: unknown[] = [];
    let error: unknown;
    try {
      for await (const value of parseJsonLines(streamOf(['{"a":1}\n\nsecret-token-123\n{"b":2}\n']))) seen.push(value);
    } catch (e) {
      error = e;
    }
    expect(seen).toEqual([{ a: 1 }]);
    expect(isJsonLinesError(error)).toBe(true);
    expect((error as JsonLinesError).type).toBe("invalid-json");
    expect((error as JsonLinesError).line).toBe(3);
    expect((error as JsonLinesError).size).toBe(16);
    expect(String((error as Error).message)).not.toContain("secret");
  });

  test("a line over maxLineBytes fails while it is still unterminated (bounded memory)", async () => {
    const error = await collect(['{"a":"', "x".repeat(40), "x".repeat(40)], { maxLineBytes: 64 }).catch(
      (e: unknown) => e,
    );
    expect(isJsonLinesError(error) && error.type).toBe("max-line-bytes-exceeded");
  });

  test("stopping early cancels the source", async () => {
    let cancelled = 0;
    const source = streamOf(['{"a":1}\n', '{"a":2}\n', '{"a":3}\n'], () => cancelled++);
    for await (const value of parseJsonLines(source)) {
      expect(value).toEqual({ a: 1 });
      break;
    }
    expect(cancelled).toBe(1);
  });

  test("an abort ends a pending read with the signal's reason and cancels the source", async () => {
    let cancelled = 0;
    const source = new ReadableStream<Uint8Array>({
      pull: () => new Promise(() => {}),
      cancel: () => void cancelled++,
    });
    const controller = new AbortController();
    const iterator = parseJsonLines(source, { signal: controller.signal });
    const pending = iterator.next();
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    expect(cancelled).toBe(1);
  });
});
