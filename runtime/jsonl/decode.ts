/**
 * JSON lines (`application/jsonl`, `application/x-ndjson`,
 * https://jsonlines.org, https://github.com/ndjson/ndjson-spec): one JSON
 * value per line, lines ended by LF (a CR before it is dropped). Blank lines
 * are skipped (ndjson allows them); the last line needs no LF.
 *
 * Protocol-neutral, like runtime/sse: bytes in, parsed values out, nothing
 * about what they mean. Uses only TextDecoder, ReadableStream, AbortSignal.
 */
import { JsonLinesError } from "./errors.js";

/** What can be decoded: a byte stream (e.g. `fetch` `response.body`) or any async iterable of byte chunks. */
export type JsonLinesSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** Default bound of one line: 16 MiB (the SSE decoder's default bound of one event too). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface JsonLinesOptions {
  /** Max bytes of one line, terminated or not. Default 16 MiB; over it, a JsonLinesError. */
  maxLineBytes?: number | undefined;
  /** Aborting stops reading, cancels the source, and the iterator throws the abort reason. */
  signal?: AbortSignal | undefined;
}

const LF = 10;

/** The values of a JSON-lines byte stream, one per non-blank line. The source is cancelled when the consumer stops early. */
export async function* parseJsonLines(
  source: JsonLinesSource,
  options: JsonLinesOptions = {},
): AsyncGenerator<unknown, void> {
  const { maxLineBytes = DEFAULT_MAX_LINE_BYTES, signal } = options;
  const reader = (source as ReadableStream<Uint8Array>).getReader?.();
  const iterator = reader ? undefined : (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  if (!reader && !iterator) throw new TypeError("parseJsonLines expects a ReadableStream or an AsyncIterable");
  const decoder = new TextDecoder();
  // Bytes of the line not yet ended, as chunks: joined once per line, never re-copied per chunk.
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  let done = false;
  const next = async (): Promise<Uint8Array | undefined> => {
    signal?.throwIfAborted();
    const read = reader ? reader.read() : iterator!.next();
    if (!signal) {
      const result = await read;
      return result.done ? undefined : result.value;
    }
    // A pending read is abandoned at once on abort (the finally below cancels the source).
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) =>
      signal.addEventListener("abort", (onAbort = () => reject(signal.reason)), { once: true }),
    );
    try {
      const result = await Promise.race([read, aborted]);
      return result.done ? undefined : result.value;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  };
  const value = (bytes: Uint8Array): { blank: boolean; value?: unknown } => {
    lineNumber++;
    let text = decoder.decode(bytes);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return { blank: true };
    try {
      return { blank: false, value: JSON.parse(text) };
    } catch (error) {
      throw new JsonLinesError("invalid-json", lineNumber, text.length, `is not JSON: ${(error as Error).name}`);
    }
  };
  const join = (last: Uint8Array): Uint8Array => {
    if (pending.length === 0) return last;
    const out = new Uint8Array(pendingBytes + last.length);
    let at = 0;
    for (const part of [...pending, last]) out.set(part, (at += part.length) - part.length);
    pending = [];
    pendingBytes = 0;
    return out;
  };
  try {
    for (let chunk = await next(); chunk !== undefined; chunk = await next()) {
      let start = 0;
      for (let end = chunk.indexOf(LF); end !== -1; end = chunk.indexOf(LF, start)) {
        if (pendingBytes + end - start > maxLineBytes)
          throw new JsonLinesError(
            "max-line-bytes-exceeded",
            lineNumber + 1,
            pendingBytes + end - start,
            `is over maxLineBytes (${maxLineBytes})`,
          );
        const line = value(join(chunk.subarray(start, end)));
        start = end + 1;
        if (!line.blank) yield line.value;
      }
      if (start < chunk.length) {
        pending.push(chunk.slice(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > maxLineBytes)
          throw new JsonLinesError(
            "max-line-bytes-exceeded",
            lineNumber + 1,
            pendingBytes,
            `is over maxLineBytes (${maxLineBytes})`,
          );
      }
    }
    done = true;
    if (pendingBytes > 0) {
      const line = value(join(new Uint8Array(0)));
      if (!line.blank) yield line.value;
    }
  } finally {
    // Stopped early (break, an error, an abort): the source is not read to its end.
    if (!done) await (reader ? reader.cancel() : iterator!.return?.())?.catch?.(() => undefined);
    reader?.releaseLock();
  }
}
