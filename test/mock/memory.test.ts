/**
 * Six parallel unauthenticated 50 MB POSTs against `mantyx-wire mock` run as
 * its own process (the CLI through tsx, as `npm run mock` runs it): the
 * mock answers each 401 from the headers and closes the connection, so its
 * resident memory (read from /proc for the child, sampled while the uploads
 * run) moves by less than 50 MB, and it keeps answering.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { raw } from "./helpers.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const tsx = createRequire(import.meta.url).resolve("tsx");
let child: ChildProcess;
let url: string;

/** The child's resident set size in bytes (Linux: /proc/<pid>/status, VmRSS in kB). */
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))!;
  return Number(/(\d+)/.exec(line)![1]) * 1024;
}

/** One unauthenticated POST of `bytes`, written in 1 MB pieces until the server answers or closes. */
function upload(bytes: number): Promise<number | string> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const piece = Buffer.alloc(1024 * 1024, 0x61);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        method: "POST",
        path: "/api/v1/workspaces/acme/agent-runs",
        headers: { "content-type": "application/json", "content-length": String(bytes) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error"));
    let sent = 0;
    const pump = (): void => {
      while (sent < bytes && !req.destroyed) {
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

beforeAll(async () => {
  child = spawn(process.execPath, ["--import", tsx, "generator/main.ts", "mock", "--port", "0", "--quiet"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`mantyx-wire mock exited (${code}) before printing its URL`)));
  });
}, 60_000);

afterAll(async () => {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
});

describe.skipIf(!existsSync("/proc/self/status"))("memory under unauthenticated uploads (needs /proc)", () => {
  it("six parallel 50 MB POSTs move the mock's RSS by less than 50 MB; each is refused 401 (or cut), and it answers afterwards", async () => {
    // Warm up the paths the uploads take, so the baseline includes them.
    for (let i = 0; i < 3; i++)
      expect(
        (await raw(url, "POST", "/api/v1/workspaces/acme/agent-runs", { "content-type": "application/json" }, "{}"))
          .status,
      ).toBe(401);
    const baseline = rss(child.pid!);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(child.pid!))), 20);
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => upload(50 * 1024 * 1024)));
    clearInterval(sampler);
    peak = Math.max(peak, rss(child.pid!));
    for (const outcome of outcomes) expect([401, "ECONNRESET", "EPIPE"]).toContain(outcome);
    expect(outcomes).toContain(401);
    expect(peak - baseline, `baseline ${baseline >> 20} MB, peak ${peak >> 20} MB`).toBeLessThan(50 * 1024 * 1024);
    const after = await raw(url, "GET", "/api/v1/workspaces/acme/models", { authorization: "Bearer mantyx_test_key" });
    expect(after.status).toBe(200);
  }, 60_000);
});
