/**
 * What the portability test runs inside each runtime (bundled by esbuild,
 * no Node APIs): a tool round trip through the client against the mock
 * server, the SSE decoder on chunks that split a UTF-8 character and a CRLF,
 * the typed event layer, the validators, and an API error.
 */
import { decodeEvents, isMantyxApiError, MantyxClient, parseSse } from "../../index.js";
import { validateRunCreateRequest, validateRunCreateRequestAllErrors } from "../../generated/validators/index.js";

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

export async function consume(baseUrl: string, workspace: string, apiKey: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};

  const bytes = new TextEncoder().encode(
    'id: 1\r\nevent: assistant_delta\r\ndata: {"seq":1,"type":"assistant_delta","data":{"text":"h\u00e9\u2713"}}\r\n\r\n',
  );
  const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of "é"
  const messages = [];
  for await (const m of parseSse(
    streamOf([bytes.subarray(0, cut), bytes.subarray(cut, bytes.length - 1), bytes.subarray(bytes.length - 1)]),
  ))
    messages.push(m);
  out["sse"] = messages.map((m) => [m.event, m.id, JSON.parse(m.data).data.text]);
  const events = [];
  for await (const e of decodeEvents(streamOf([bytes]))) events.push(e.type);
  out["decoded"] = events;

  const spec = {
    modelId: "platform:demo",
    systemPrompt: "You are a cashier.",
    prompt: "What is 42 USD with tax?",
    tools: [{ kind: "local" as const, name: "compute_total", description: "Add tax.", parameters: { type: "object" } }],
  };
  out["validSpec"] = validateRunCreateRequest(spec);
  out["badSpecIssues"] = validateRunCreateRequestAllErrors({ prompt: 1, reasoningLevel: 101 })
    ? 0
    : validateRunCreateRequestAllErrors.errors?.length;

  const client = new MantyxClient({ baseUrl, workspace, apiKey });
  const { runId } = await client.createRun(spec);
  const types: string[] = [];
  for await (const event of client.streamRun(runId)) {
    types.push(String(event.type)); // the open variant's type is a branded String (see generated/types.ts)
    if (event.type === "local_tool_call") {
      const outcome = await client.postToolResult(runId, { toolUseId: event.data.toolUseId, result: '{"total":50.4}' });
      out["outcome"] = outcome.status;
    }
  }
  out["types"] = types;

  try {
    await new MantyxClient({ baseUrl, workspace, apiKey: "wrong_key" }).listModels();
  } catch (e) {
    // The credential appears nowhere in the error, whatever the server echoed.
    const leaks = JSON.stringify(e).includes("wrong_key") || String((e as Error).stack).includes("wrong_key");
    out["error"] = { api: isMantyxApiError(e), status: (e as { status?: number }).status, leaks };
  }
  return out;
}

/**
 * A call whose credential rides in `X-API-Key` (which fetch would forward
 * to the origin a redirect names) against a base URL that redirects: the
 * error it ends in (a browser hides the redirect from the client).
 */
export async function redirected(baseUrl: string, workspace: string, apiKey: string): Promise<Record<string, unknown>> {
  try {
    await new MantyxClient({ baseUrl, workspace, apiKey, credentialHeader: "x-api-key" }).listModels();
    return { threw: false };
  } catch (e) {
    const text = `${String((e as Error).stack)}${JSON.stringify(e)}${(e as Error).message}`;
    return { threw: true, name: (e as Error).name, message: (e as Error).message, leaks: text.includes(apiKey) };
  }
}
