/**
 * Table-driven WHATWG event-stream rules and chunk-boundary behaviour. Every
 * case runs through createSseParser, parseSse (ReadableStream and async
 * iterable sources) and parseSseBatches, with the chunks as written, as one
 * chunk, and byte by byte: the expected result must not depend on chunking.
 */
import { describe, expect, it } from "vitest";
import type { SseMessage } from "../../runtime/sse/index.js";
import {
  byteByByte,
  concatBytes,
  runBatches,
  runIter,
  runPush,
  splitAt,
  toBytes,
  type ChunkSpec,
  type Observed,
} from "./helpers.js";

interface Case {
  name: string;
  chunks: ChunkSpec[];
  messages: SseMessage[];
  retries?: number[];
  comments?: string[];
  /** The case is about the start of the stream (BOM): not run after a preamble. */
  atStart?: true;
}

function msg(data: string, event = "message", id = "", retry?: number): SseMessage {
  return retry === undefined ? { event, data, id } : { event, data, id, retry };
}

const BOM = [0xef, 0xbb, 0xbf];

const cases: Case[] = [
  // Line terminators
  { name: "LF ends a line", chunks: ["data: a\n\n"], messages: [msg("a")] },
  { name: "CR ends a line", chunks: ["data: a\r\r"], messages: [msg("a")] },
  { name: "CRLF ends a line", chunks: ["data: a\r\n\r\n"], messages: [msg("a")] },
  {
    name: "LF, CR and CRLF mixed in one stream",
    chunks: ["data: a\rdata: b\r\n\ndata: c\n\r"],
    messages: [msg("a\nb"), msg("c")],
  },
  {
    name: "CR at end of one chunk and LF at start of the next is one line break",
    chunks: ["data: a\r", "\ndata: b\r", "\n\r", "\n"],
    messages: [msg("a\nb")],
  },
  {
    name: "CR at end of a chunk followed by a chunk without LF is a line break on its own",
    chunks: ["data: a\r", "data: b\r", "\r"],
    messages: [msg("a\nb")],
  },
  {
    name: "CR, an empty chunk, then LF is still one line break",
    chunks: ["data: a\r", "", "\n", "", "\n"],
    messages: [msg("a")],
  },
  {
    name: "CR and LF each in their own chunk, twice",
    chunks: ["data: a", "\r", "\n", "\r", "\n"],
    messages: [msg("a")],
  },
  {
    name: "CR LF pair split where the CR ends a pending line",
    chunks: ["da", "ta: a\r", "\n", "\r\n"],
    messages: [msg("a")],
  },
  { name: "CR then CRLF is two line breaks", chunks: ["data: a\r\r\n"], messages: [msg("a")] },
  { name: "LF then CR is two line breaks", chunks: ["data: a\n\rdata: b\n\n"], messages: [msg("a"), msg("b")] },
  {
    name: "a line split over many chunks",
    chunks: ["d", "a", "t", "a", ":", " ", "x", "y", "\n", "\n"],
    messages: [msg("xy")],
  },

  // Comments
  {
    name: "a comment line is reported without the colon and dispatches nothing",
    chunks: [": heartbeat\n\n"],
    messages: [],
    comments: [" heartbeat"],
  },
  { name: "a lone colon is an empty comment", chunks: [":\n"], messages: [], comments: [""] },
  {
    name: "a comment inside an event does not interrupt it",
    chunks: ["data: a\n:c\ndata: b\n\n"],
    messages: [msg("a\nb")],
    comments: ["c"],
  },

  // Field syntax
  {
    name: "a field without a colon is a name with an empty value (data gives an empty data line)",
    chunks: ["data\n\n"],
    messages: [msg("")],
  },
  { name: "two colon-less data lines give one LF", chunks: ["data\ndata\n\n"], messages: [msg("\n")] },
  { name: "data: with nothing after the colon is an empty value", chunks: ["data:\n\n"], messages: [msg("")] },
  { name: "data: followed by one space is an empty value", chunks: ["data: \n\n"], messages: [msg("")] },
  { name: "only one leading space is stripped (data:  x)", chunks: ["data:  x\n\n"], messages: [msg(" x")] },
  { name: "no space after the colon is fine", chunks: ["data:x\n\n"], messages: [msg("x")] },
  { name: "trailing spaces are kept", chunks: ["data: x  \n\n"], messages: [msg("x  ")] },
  { name: "colons in the value are kept", chunks: ["data: a:b: c\n\n"], messages: [msg("a:b: c")] },
  { name: "a tab is not stripped", chunks: ["data:\tx\n\n"], messages: [msg("\tx")] },
  { name: "field names are case-sensitive", chunks: ["Data: x\nEVENT: y\ndata: z\n\n"], messages: [msg("z")] },
  { name: "a space before the colon makes an unknown field", chunks: ["data : x\n\n"], messages: [] },
  { name: "unknown fields are ignored", chunks: ["foo: bar\ndata: y\nx\n\n"], messages: [msg("y")] },
  { name: "U+0000 in data is kept", chunks: ["data: a\u0000b\n\n"], messages: [msg("a\u0000b")] },

  // data
  { name: "multi-line data is joined with LF", chunks: ["data: a\ndata: b\ndata: c\n\n"], messages: [msg("a\nb\nc")] },
  { name: "a trailing empty data line leaves one trailing LF", chunks: ["data: a\ndata:\n\n"], messages: [msg("a\n")] },
  { name: "blank lines without data dispatch nothing", chunks: ["\n\n\r\n\r"], messages: [] },

  // event
  { name: "event sets the type", chunks: ["event: ping\ndata: x\n\n"], messages: [msg("x", "ping")] },
  { name: "an empty event value means message", chunks: ["event:\ndata: x\n\n"], messages: [msg("x")] },
  { name: "the last event field wins", chunks: ["event: a\nevent: b\ndata: x\n\n"], messages: [msg("x", "b")] },
  { name: "a colon-less event line resets the type", chunks: ["event: a\nevent\ndata: x\n\n"], messages: [msg("x")] },
  {
    name: "event type is reset after dispatch",
    chunks: ["event: a\ndata: 1\n\ndata: 2\n\n"],
    messages: [msg("1", "a"), msg("2")],
  },
  {
    name: "an event with no data is not dispatched but its type is still reset",
    chunks: ["event: a\n\ndata: 2\n\n"],
    messages: [msg("2")],
  },
  {
    name: "an equal type in the next event is still its own field",
    chunks: ["event: a\ndata: 1\n\nevent: a\ndata: 2\n\nevent: b\ndata: 3\n\n"],
    messages: [msg("1", "a"), msg("2", "a"), msg("3", "b")],
  },

  // id
  {
    name: "the last event ID persists across events",
    chunks: ["id: 1\ndata: a\n\ndata: b\n\n"],
    messages: [msg("a", "message", "1"), msg("b", "message", "1")],
  },
  {
    name: "an empty id resets the last event ID (with or without colon)",
    chunks: ["id: 1\ndata: a\n\nid\ndata: b\n\nid: 2\ndata: c\n\nid:\ndata: d\n\n"],
    messages: [msg("a", "message", "1"), msg("b"), msg("c", "message", "2"), msg("d")],
  },
  {
    name: "an id containing U+0000 is ignored",
    chunks: ["id: 1\ndata: a\n\nid: 2\u00003\ndata: b\n\n"],
    messages: [msg("a", "message", "1"), msg("b", "message", "1")],
  },
  {
    name: "an id in an event without data still sets the last event ID",
    chunks: ["id: 7\n\ndata: x\n\n"],
    messages: [msg("x", "message", "7")],
  },
  {
    name: "an id in an incomplete event still counts for later events",
    chunks: ["id: 7\ndata: x\n\n"],
    messages: [msg("x", "message", "7")],
  },
  {
    name: "only one space is stripped from an id",
    chunks: ["id:  5\ndata: x\n\n"],
    messages: [msg("x", "message", " 5")],
  },

  // retry
  {
    name: "retry with digits sets the reconnection time",
    chunks: ["retry: 1000\ndata: x\n\n"],
    messages: [msg("x", "message", "", 1000)],
    retries: [1000],
  },
  { name: "retry: 12a is ignored", chunks: ["retry: 12a\ndata: x\n\n"], messages: [msg("x")] },
  {
    name: "retry is delivered via onRetry even without a dispatch",
    chunks: ["retry: 500\n\n"],
    messages: [],
    retries: [500],
  },
  {
    name: "retry persists across events and later values replace it",
    chunks: ["retry: 5\ndata: a\n\ndata: b\n\nretry: 7\ndata: c\n\n"],
    messages: [msg("a", "message", "", 5), msg("b", "message", "", 5), msg("c", "message", "", 7)],
    retries: [5, 7],
  },
  {
    name: "empty, signed, spaced, decimal and invalid retry values are ignored",
    chunks: ["retry:\nretry: -1\nretry:  5\nretry: 5 \nretry: 1.5\nretry: +5\nretry: 1e3\ndata: x\n\n"],
    messages: [msg("x")],
  },
  { name: "retry: 0 is valid", chunks: ["retry: 0\n\n"], messages: [], retries: [0] },
  { name: "retry with leading zeros is decimal", chunks: ["retry: 010\n\n"], messages: [], retries: [10] },

  // End of stream
  { name: "an incomplete final event is discarded", chunks: ["data: a\n\ndata: b\n"], messages: [msg("a")] },
  { name: "an unterminated final line is not a line", chunks: ["data: a\n\ndata: b"], messages: [msg("a")] },
  { name: "an unterminated final retry line is not processed", chunks: ["retry: 5"], messages: [] },
  { name: "an empty stream yields nothing", chunks: [], messages: [] },
  { name: "empty chunks are harmless", chunks: ["", "data: a\n", "", "\n", ""], messages: [msg("a")] },

  // BOM
  {
    name: "a UTF-8 BOM at the start is stripped",
    chunks: [[...BOM], "data: x\n\n"],
    messages: [msg("x")],
    atStart: true,
  },
  {
    name: "a BOM split byte by byte at the start is stripped",
    chunks: [[0xef], [0xbb], [0xbf], "data: x\n\n"],
    messages: [msg("x")],
    atStart: true,
  },
  {
    name: "a BOM at the start of a long first line is stripped",
    chunks: [[...BOM, 0x64, 0x61], "ta: x\n\n"],
    messages: [msg("x")],
    atStart: true,
  },
  {
    name: "only one BOM is stripped: a second one makes an unknown field",
    chunks: [[...BOM, ...BOM], "data: x\n\ndata: y\n\n"],
    messages: [msg("y")],
    atStart: true,
  },
  {
    name: "a BOM later in the stream is kept as U+FEFF in data, even at a chunk start",
    chunks: ["\uFEFFdata: a\n\n", "data: \uFEFFb\n\n", "\uFEFFdata: c\n\n", "data: d\n\n"],
    messages: [msg("a"), msg("\uFEFFb"), msg("d")],
    atStart: true,
  },
  {
    name: "a lone start-of-stream U+FEFF line is stripped, leaving a blank line",
    chunks: ["\uFEFF\ndata: x\n\n"],
    messages: [msg("x")],
    atStart: true,
  },

  // UTF-8
  { name: "invalid UTF-8 becomes U+FFFD", chunks: ["data: a", [0xff], "b\n\n"], messages: [msg("a\uFFFDb")] },
  {
    name: "a truncated sequence before LF becomes one U+FFFD",
    chunks: ["data: ", [0xf0, 0x9f, 0x98], "\n\n"],
    messages: [msg("\uFFFD")],
  },
  {
    name: "a truncated sequence at the end of a chunk becomes one U+FFFD",
    chunks: ["data: ", [0xf0, 0x9f], "\n\n"],
    messages: [msg("\uFFFD")],
  },
  {
    name: "an overlong encoding becomes U+FFFD per byte",
    chunks: ["data: ", [0xc0, 0xaf], "\n\n"],
    messages: [msg("\uFFFD\uFFFD")],
  },
  {
    name: "an encoded surrogate becomes U+FFFD per byte",
    chunks: ["data: ", [0xed, 0xa0, 0x80], "\n\n"],
    messages: [msg("\uFFFD\uFFFD\uFFFD")],
  },
  {
    name: "a lone continuation byte in a field name",
    chunks: [[0x80], "data: x\n\ndata: y\n\n"],
    messages: [msg("y")],
  },
  {
    name: "non-ASCII text in every field",
    chunks: ["event: é\nid: 日本\ndata: 😀 ü\n\n"],
    messages: [msg("😀 ü", "é", "日本")],
  },
  { name: "a 2-byte character split across chunks", chunks: ["data: ", [0xc3], [0xa9], "\n\n"], messages: [msg("é")] },
  {
    name: "a 3-byte character split across three chunks",
    chunks: ["data: ", [0xe6], [0x97], [0xa5], "\n\n"],
    messages: [msg("日")],
  },
];

function expected(c: Case, label: string): Observed {
  const messages = label.startsWith("after a non-ASCII block") ? [msg(PREAMBLE_DATA), ...c.messages] : c.messages;
  return { messages, retries: c.retries ?? [], comments: c.comments ?? [] };
}

/**
 * A large non-ASCII event as a chunk of its own: after it the decoder
 * predicts non-ASCII text and decodes the next blocks with its other
 * TextDecoder, so every case also runs through that path.
 */
const PREAMBLE_DATA = "é".repeat(600);
const PREAMBLE = toBytes(`data: ${PREAMBLE_DATA}\n\n`);

function chunkings(c: Case): [string, Uint8Array[]][] {
  const given = c.chunks.map(toBytes);
  const whole = concatBytes(given);
  const out: [string, Uint8Array[]][] = [
    ["as written", given],
    ["as one chunk", [whole]],
    ["byte by byte", byteByByte(whole)],
  ];
  if (!c.atStart) {
    out.push(["after a non-ASCII block, as written", [PREAMBLE, ...given]]);
    out.push(["after a non-ASCII block, as one chunk", [PREAMBLE, whole]]);
  }
  return out;
}

describe("event-stream rules", () => {
  describe.each(cases)("$name", (c) => {
    it.each(chunkings(c))("createSseParser, %s", (label, chunks) => {
      expect(runPush(chunks)).toStrictEqual(expected(c, label));
    });
    it.each(chunkings(c))("parseSse over a ReadableStream, %s", async (label, chunks) => {
      expect(await runIter(chunks, "stream")).toStrictEqual(expected(c, label));
    });
    it.each(chunkings(c))("parseSse over an async iterable, %s", async (label, chunks) => {
      expect(await runIter(chunks, "iterable")).toStrictEqual(expected(c, label));
    });
    it.each(chunkings(c))("parseSseBatches, %s", async (label, chunks) => {
      const { batches: _b, ...seen } = await runBatches(chunks);
      expect(seen).toStrictEqual(expected(c, label));
    });
  });
});

describe("multi-byte characters split at every byte", () => {
  const samples = ["😀", "é", "日", "𝄞x€"];
  it.each(samples)("%s in data, every single split point and every pair of split points", (s) => {
    const bytes = toBytes(`data: ${s}\n\n`);
    const want = { messages: [msg(s)], retries: [], comments: [] };
    for (let i = 1; i < bytes.length; i++) {
      expect(runPush(splitAt(bytes, i))).toStrictEqual(want);
      for (let j = i; j < bytes.length; j++) {
        expect(runPush(splitAt(bytes, i, j))).toStrictEqual(want);
      }
    }
  });

  it("a 4-byte emoji split at every byte, as the first bytes of a long pending line", async () => {
    const long = "x".repeat(70_000);
    const bytes = toBytes(`data: ${long}😀\n\n`);
    const emojiAt = 6 + long.length;
    for (let k = 1; k < 4; k++) {
      const chunks = splitAt(bytes, 100, emojiAt + k);
      expect(runPush(chunks).messages).toStrictEqual([msg(`${long}😀`)]);
      expect((await runIter(chunks)).messages).toStrictEqual([msg(`${long}😀`)]);
    }
  });
});

describe("batches", () => {
  it("yields one array per chunk that completed messages, never an empty one", async () => {
    const chunks = [
      "data: a\n\ndata: b\n\n",
      "data: c",
      "\n",
      "\n",
      ": only a comment\n",
      "data: d\n\ndata: e\n\n",
    ].map(toBytes);
    const { batches, messages } = await runBatches(chunks);
    expect(messages.map((m) => m.data)).toStrictEqual(["a", "b", "c", "d", "e"]);
    expect(batches).toBe(3);
  });
});
