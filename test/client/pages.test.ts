/**
 * `<operation>Pages` for the operations the schema marks `x-pagination`,
 * over real HTTP: run listing by opaque cursor, session replay backwards by
 * `beforeSeq`, the caller's own parameters kept on every page, and a server
 * that repeats a cursor cannot make the iteration loop.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import { listRunsPages, MantyxCore } from "../../generated/operations.js";

const seen: URL[] = [];
let repeatCursor = false;
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url!, "http://x");
  seen.push(url);
  const json = (body: unknown): void =>
    void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  if (url.pathname.endsWith("/agent-runs")) {
    const page = Number(url.searchParams.get("cursor")?.replace("c", "") ?? "0");
    const next = repeatCursor ? "c1" : page < 2 ? `c${page + 1}` : null;
    return json({ total: null, limit: 1, nextCursor: next, runs: [{ id: `run_${page}` }] });
  }
  if (url.pathname.endsWith("/events")) {
    // Newest page first; each names the seq to send back as beforeSeq for the older one.
    const before = Number(url.searchParams.get("beforeSeq") ?? "7");
    const events = [before - 2, before - 1]
      .filter((s) => s >= 1)
      .map((seq) => ({ seq, type: "assistant_delta", text: "x" }));
    return json({ events, total: 6, truncated: before > 3, nextBeforeSeq: before > 3 ? before - 2 : null });
  }
  res.writeHead(404).end();
});

let client: MantyxClient;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  client = new MantyxClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    workspace: "acme",
    apiKey: "mantyx_test_key",
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("cursor pages", () => {
  it("listRunsPages follows nextCursor until it is null, keeping the caller's other parameters", async () => {
    seen.length = 0;
    const ids: string[] = [];
    for await (const page of client.listRunsPages({ query: { limit: 1, status: "succeeded" } }))
      ids.push(...page.runs.map((r) => r.id));
    expect(ids).toEqual(["run_0", "run_1", "run_2"]);
    expect(seen.map((u) => u.searchParams.get("cursor"))).toEqual([null, "c1", "c2"]);
    expect(seen.every((u) => u.searchParams.get("limit") === "1" && u.searchParams.get("status") === "succeeded")).toBe(
      true,
    );
  });

  it("the listRunsPages operation function does the same on a MantyxCore", async () => {
    seen.length = 0;
    const core = new MantyxCore({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      workspace: "acme",
      apiKey: "mantyx_test_key",
    });
    const ids: string[] = [];
    for await (const page of listRunsPages(core, { query: { limit: 1, status: "succeeded" } }))
      ids.push(...page.runs.map((r) => r.id));
    expect(ids).toEqual(["run_0", "run_1", "run_2"]);
    expect(seen.map((u) => u.searchParams.get("cursor"))).toEqual([null, "c1", "c2"]);
  });

  it("a cursor given starts there, and break stops fetching", async () => {
    seen.length = 0;
    for await (const page of client.listRunsPages({ query: { cursor: "c1" } })) {
      expect(page.runs[0]!.id).toBe("run_1");
      break;
    }
    expect(seen).toHaveLength(1);
  });

  it("session replay pages backwards: nextBeforeSeq goes back as beforeSeq until the start", async () => {
    seen.length = 0;
    const seqs: number[] = [];
    for await (const page of client.listSessionEventsPages("sess_1")) seqs.push(...page.events.map((e) => e.seq));
    expect(seqs).toEqual([5, 6, 3, 4, 1, 2]);
    expect(seen.map((u) => u.searchParams.get("beforeSeq"))).toEqual([null, "5", "3"]);
  });

  it("a server that names a cursor it already gave ends the iteration instead of looping", async () => {
    repeatCursor = true;
    try {
      let pages = 0;
      for await (const _ of client.listRunsPages()) pages++;
      expect(pages).toBe(2);
    } finally {
      repeatCursor = false;
    }
  });
});
