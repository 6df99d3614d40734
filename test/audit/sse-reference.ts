/**
 * A WHATWG event-stream interpreter written from the HTML standard's
 * "Interpreting an event stream" section, as plainly as it reads (whole
 * input, no speed): the reference the audit compares the project's decoder
 * with. Returns the dispatched events and every valid `retry:` value.
 */
export interface ReferenceEvent {
  event: string;
  data: string;
  id: string;
}

export function interpretEventStream(bytes: Uint8Array): { events: ReferenceEvent[]; retries: number[] } {
  // UTF-8 decode: replacement on errors, one leading BOM removed.
  const text = new TextDecoder("utf-8").decode(bytes);
  const events: ReferenceEvent[] = [];
  const retries: number[] = [];
  let data = "";
  let type = "";
  let lastIdBuffer = "";
  let lastId = "";
  // Lines end with CRLF, LF or CR; what follows the last line end is an unfinished line, discarded at EOF.
  const lineEnd = /\r\n|\n|\r/g;
  let start = 0;
  for (let m = lineEnd.exec(text); m; m = lineEnd.exec(text)) {
    const line = text.slice(start, m.index);
    start = m.index + m[0].length;
    if (line === "") {
      lastId = lastIdBuffer;
      if (data === "") {
        type = "";
        continue;
      }
      if (data.endsWith("\n")) data = data.slice(0, -1);
      events.push({ event: type || "message", data, id: lastId });
      data = "";
      type = "";
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    let field = line;
    let value = "";
    if (colon >= 0) {
      field = line.slice(0, colon);
      value = line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
    }
    if (field === "event") type = value;
    else if (field === "data") data += `${value}\n`;
    else if (field === "id") {
      if (!value.includes("\0")) lastIdBuffer = value;
    } else if (field === "retry") {
      if (/^[0-9]+$/.test(value)) retries.push(parseInt(value, 10));
    }
  }
  return { events, retries };
}
