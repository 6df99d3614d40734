/**
 * A deliberately naive, obviously-correct event-stream interpreter, written
 * straight from the WHATWG "Interpreting an event stream" steps, used as the
 * oracle for property tests. No streaming, no speed: decode everything, split
 * with a regex, walk the lines.
 */
import type { SseMessage } from "../../runtime/sse/index.js";
import type { Observed } from "./helpers.js";

export function referenceParse(bytes: Uint8Array): Observed {
  // A default TextDecoder replaces invalid UTF-8 with U+FFFD and strips one leading BOM.
  const text = new TextDecoder().decode(bytes);
  const lines = text.split(/\r\n|\r|\n/);
  // The piece after the last terminator is not a line: the stream ended inside it.
  lines.pop();

  const out: Observed = { messages: [], retries: [], comments: [] };
  let data = "";
  let eventType = "";
  let lastEventId = "";
  let retry: number | undefined;

  for (const line of lines) {
    if (line === "") {
      if (data === "") {
        eventType = "";
        continue;
      }
      if (data.endsWith("\n")) data = data.slice(0, -1);
      const m: SseMessage = { event: eventType === "" ? "message" : eventType, data, id: lastEventId };
      if (retry !== undefined) m.retry = retry;
      out.messages.push(m);
      data = "";
      eventType = "";
      continue;
    }
    if (line.startsWith(":")) {
      out.comments.push(line.slice(1));
      continue;
    }
    let field = line;
    let value = "";
    const colon = line.indexOf(":");
    if (colon !== -1) {
      field = line.slice(0, colon);
      value = line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
    }
    if (field === "event") eventType = value;
    else if (field === "data") data += `${value}\n`;
    else if (field === "id") {
      if (!value.includes("\u0000")) lastEventId = value;
    } else if (field === "retry") {
      if (/^[0-9]+$/.test(value)) {
        retry = Math.min(Number(value), Number.MAX_SAFE_INTEGER); // saturated, as the decoders do
        out.retries.push(retry);
      }
    }
  }
  // End of stream: whatever event was being built is discarded.
  return out;
}

/**
 * Reference for maxEventBytes: the wire bytes of each event's field lines
 * (comments, blank lines and terminators not counted), error at the first
 * line over the limit (a comment line errors alone if it is longer than the
 * limit), or an unterminated tail over it. Lines are cut at the
 * byte level and decoded one by one (terminators are ASCII, so this decodes
 * as the whole stream would); a leading BOM is not part of the first line.
 */
export function referenceWithLimit(bytes: Uint8Array, limit: number) {
  const lines: Uint8Array[] = [];
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let i = start; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x0a && b !== 0x0d) continue;
    lines.push(bytes.subarray(start, i));
    if (b === 0x0d && bytes[i + 1] === 0x0a) i++;
    start = i + 1;
  }
  const tail = bytes.length - start;
  const messages: string[] = [];
  let data: string[] = [];
  let size = 0;
  for (const raw of lines) {
    const line = new TextDecoder("utf-8", { ignoreBOM: true }).decode(raw);
    if (line === "") {
      if (data.length > 0) messages.push(data.join("\n"));
      data = [];
      size = 0;
      continue;
    }
    if (line.startsWith(":")) {
      if (raw.length > limit) return { messages, errorSize: raw.length as number | undefined };
      continue;
    }
    size += raw.length;
    if (size > limit) return { messages, errorSize: size as number | undefined };
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
  }
  return { messages, errorSize: tail > limit ? tail : undefined };
}
