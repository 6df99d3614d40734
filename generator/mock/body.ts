/**
 * Reading a request body with a cap: the mock reads a body only after the
 * credential and the route were checked (server.ts), and never holds more
 * than `maxBytes` of it. A declared `Content-Length` over the cap is refused
 * before a byte is read; a body that grows past it is refused as soon as it
 * does.
 */
import type { IncomingMessage } from "node:http";

export type BodyRead =
  | { readonly kind: "empty" }
  | { readonly kind: "json"; readonly value: unknown; readonly bytes: number }
  | { readonly kind: "too-large"; readonly limit: number }
  | { readonly kind: "not-json"; readonly message: string }
  | { readonly kind: "aborted" };

/** Whether the declared length already exceeds `maxBytes` (no byte read yet). */
export function declaredTooLarge(req: IncomingMessage, maxBytes: number): boolean {
  const declared = req.headers["content-length"];
  return declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBytes;
}

export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  if (declaredTooLarge(req, maxBytes)) return Promise.resolve({ kind: "too-large", limit: maxBytes });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead): void => {
      if (settled) return;
      settled = true;
      req.off("data", onData);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        req.pause();
        settle({ kind: "too-large", limit: maxBytes });
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("error", () => settle({ kind: "aborted" }));
    req.once("aborted", () => settle({ kind: "aborted" }));
    req.once("end", () => {
      if (size === 0) return settle({ kind: "empty" });
      const text = Buffer.concat(chunks, size).toString("utf8");
      try {
        settle({ kind: "json", value: JSON.parse(text) as unknown, bytes: size });
      } catch (error) {
        settle({ kind: "not-json", message: (error as Error).message });
      }
    });
  });
}
