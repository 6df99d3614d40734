/**
 * A hostile server for redaction tests: it reflects the credential it
 * receives (Authorization or X-API-Key) into everything it can — status
 * text, every header, the content type, the body (raw, JSON-escaped,
 * URL-encoded, base64 at every alignment, as a value and as a key), SSE
 * `id:`/`event:`/`data:` lines, and redirect targets. Real HTTP on
 * 127.0.0.1; `mode` picks what the next requests get.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type EchoMode =
  /** 4xx/5xx (`status`) with the credential everywhere. */
  | "error"
  /** 200 whose content type and text body echo it (not JSON, not an event stream). */
  | "ok-wrong-type"
  /** 200 event stream whose frames echo it (malformed, invalid and valid ones), then a terminal event. */
  | "frames"
  /** 307 to a same-origin URL carrying it (that URL answers as "error"). */
  | "redirect"
  /** 307 to a refused port, the credential in the path and query. */
  | "redirect-refused"
  /** 307 to a URL fetch cannot parse, built around it. */
  | "redirect-invalid";

export interface EchoServer {
  url: string;
  mode: EchoMode;
  /** Status of "error" answers. Default 403. */
  status: number;
  /** Requests received. */
  count: number;
  close(): Promise<void>;
}

/** Every form a careless server might write the credential in. */
export function echoForms(key: string): string[] {
  const b64 = (s: string): string => Buffer.from(s, "latin1").toString("base64");
  return [
    key,
    JSON.stringify(key).slice(1, -1),
    encodeURIComponent(key),
    encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    b64(key),
    b64(key).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
    b64(`Bearer ${key}`),
    b64(`user:${key}`),
    b64(`xy${key}!`),
  ];
}

export async function startEchoServer(): Promise<EchoServer> {
  const sockets = new Set<Socket>();
  const state: EchoServer = { url: "", mode: "error", status: 403, count: 0, close: async () => undefined };

  const credentialOf = (req: IncomingMessage): string => {
    const auth = req.headers["authorization"];
    return typeof auth === "string" ? auth.replace(/^Bearer /i, "") : String(req.headers["x-api-key"] ?? "");
  };

  const echoHeaders = (key: string, contentType: string): Record<string, string> => {
    const forms = echoForms(key);
    return {
      "content-type": contentType,
      "x-request-id": `req-${key}`,
      "www-authenticate": `Bearer realm="${key}", error="insufficient_scope", scope="runs:write ${key} ${forms[2]}"`,
      "retry-after": "0",
      "x-echo-forms": forms.join(" "),
      "x-ratelimit-remaining": key,
    };
  };

  const answerError = (res: ServerResponse, key: string): void => {
    const forms = echoForms(key);
    const body = JSON.stringify({
      error: "insufficient_scope",
      message: `credential ${key} refused; encoded ${forms.slice(2).join(" ")}`,
      hint: `use ${key}`,
      required: [key, forms[2]],
      candidates: forms,
      [key]: { [forms[4]!]: key },
    });
    res.writeHead(state.status, `Denied ${key}`, echoHeaders(key, `application/json; charset=utf-8; k="${key}"`));
    res.end(body);
  };

  const server = createServer((req, res) => {
    state.count++;
    const key = credentialOf(req);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname.startsWith("/echo-next")) return answerError(res, key);
    const forms = echoForms(key);
    switch (state.mode) {
      case "error":
        return answerError(res, key);
      case "ok-wrong-type":
        res.writeHead(200, `OK ${key}`, echoHeaders(key, `text/plain; charset="${key}"`));
        return void res.end(`not json: ${forms.join(" | ")}`);
      case "redirect":
        res.writeHead(307, `Moved ${key}`, {
          location: `/echo-next/${encodeURIComponent(key)}?k=${encodeURIComponent(key)}&b=${forms[4]}`,
        });
        return void res.end();
      case "redirect-refused":
        res.writeHead(307, { location: `http://127.0.0.1:1/${encodeURIComponent(key)}?k=${forms[4]}` });
        return void res.end();
      case "redirect-invalid":
        res.writeHead(307, { location: `http://[${encodeURIComponent(key)}]:99999/${forms[4]}` });
        return void res.end();
      case "frames": {
        if (!url.pathname.endsWith("/stream")) return answerError(res, key);
        res.writeHead(200, { ...echoHeaders(key, "text/event-stream"), "content-type": "text/event-stream" });
        const json = (v: unknown): string => JSON.stringify(v);
        res.write(`retry: 1\n\n`);
        res.write(`id: ${key}\nevent: ${key}\ndata: ${key} not json ${forms.join(" ")}\n\n`);
        res.write(
          `id: 1\nevent: assistant_delta\ndata: ${json({ seq: 1, type: "assistant_delta", data: { [key]: key, text: 5, b64: forms[4] } })}\n\n`,
        );
        res.write(
          `id: 2\nevent: assistant_delta\ndata: ${json({ seq: key, type: "assistant_delta", data: { text: key } })}\n\n`,
        );
        res.write(
          `id: 3\nevent: result\ndata: ${json({ seq: 3, type: "result", data: { ok: true, text: "done" } })}\n\n`,
        );
        return void res.end();
      }
    }
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => {
    for (const s of sockets) s.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return state;
}
