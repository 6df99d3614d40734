/**
 * How a `mantyx-wire mock` command serves: until SIGINT or SIGTERM, or until
 * `stop` aborts (tests and the demo run the command in-process), then it
 * closes the server. One rule for both mocks (the MANTYX scenario set and
 * the document mock).
 */
export async function serveUntilStopped(server: { close(): Promise<void> }, stop: AbortSignal | undefined): Promise<0> {
  await new Promise<void>((resolve) => {
    const done = (): void => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      resolve();
    };
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
    if (stop?.aborted === true) done();
    stop?.addEventListener("abort", done, { once: true });
  });
  await server.close();
  return 0;
}
