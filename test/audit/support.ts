/** What the audit's test files share: their server and a client on it. */
import { afterAll } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import { startAuditServer, type AuditServer } from "./fault-server.js";

/**
 * The audit server (./fault-server.ts) for one test file, closed after its
 * tests, with `client()`: a new MantyxClient on it with default settings
 * and warnings kept quiet (the tests check what reaches the caller). Called
 * at a test file's top level: `const { server, client } = await auditServer();`.
 */
export async function auditServer(apiKey?: string): Promise<{ server: AuditServer; client: () => MantyxClient }> {
  const server = await startAuditServer(apiKey);
  afterAll(() => server.close());
  const client = (): MantyxClient =>
    new MantyxClient({
      baseUrl: server.url,
      workspace: server.workspace,
      apiKey: server.apiKey,
      onWarning: () => undefined,
    });
  return { server, client };
}
