/** What every runtime's run of ./consumer.ts must produce. */
import { expect } from "vitest";

export function expectRoundTrip(out: Record<string, unknown>): void {
  expect(out).toMatchObject({
    sse: [["assistant_delta", "1", "h\u00e9\u2713"]],
    decoded: ["assistant_delta"],
    validSpec: true,
    outcome: "accepted",
    error: { api: true, status: 401, leaks: false },
  });
  expect(out["badSpecIssues"]).toBeGreaterThanOrEqual(2);
  expect(out["types"]).toContain("local_tool_call");
  expect((out["types"] as string[]).at(-1)).toBe("result");
}
