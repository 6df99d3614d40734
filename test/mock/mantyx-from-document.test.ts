/**
 * The MANTYX mock is a scenario set on the engine of the mock of any
 * document: an operation named in `fromDocument` (and any operation it has
 * no scenario for) is answered as `mantyx-wire mock --schema` answers it,
 * from the schema's examples (`Prefer: code=` picks another status), while
 * the MANTYX checks before it (credential, scopes, workspace) still apply.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../../generator/mock/index.js";

let scenarios: MockServer;
let fromDocument: MockServer;
beforeAll(async () => {
  scenarios = await startMockServer();
  fromDocument = await startMockServer({ fromDocument: ["listModels"] });
});
afterAll(async () => {
  await scenarios.close();
  await fromDocument.close();
});

const models = (server: MockServer, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/v1/workspaces/acme/models`, {
    headers: { authorization: `Bearer ${server.apiKey}`, ...headers },
  });

describe("MANTYX operations answered from the document", () => {
  it("the scenario's answer, and the document's example where asked for, with Prefer: code= choosing another documented answer", async () => {
    const scenario = (await (await models(scenarios)).json()) as { defaultModelId: string };
    const documented = (await (await models(fromDocument)).json()) as { defaultModelId: string; models: unknown[] };
    expect(scenario.defaultModelId).toBe("platform:demo");
    expect(documented.defaultModelId).toBe("provider:cm6def456");
    expect(documented.models).toHaveLength(1);
    const unauthorized = await models(fromDocument, { prefer: "code=401" });
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({
      error: "Unauthorized",
      message: "Missing Authorization or X-API-Key header",
    });
  });

  it("the credential, the scopes and the workspace are still checked first", async () => {
    expect((await fetch(`${fromDocument.url}/api/v1/workspaces/acme/models`)).status).toBe(401);
    expect((await models(fromDocument, { authorization: "Bearer mantyx_at_readonly" })).status).toBe(403);
    expect(
      (
        await fetch(`${fromDocument.url}/api/v1/workspaces/other/models`, {
          headers: { authorization: `Bearer ${fromDocument.apiKey}` },
        })
      ).status,
    ).toBe(404);
  });

  it("an operation the schema does not have is refused at start", async () => {
    await expect(startMockServer({ fromDocument: ["noSuchOperation"] })).rejects.toThrow(/noSuchOperation/);
  });
});
