/**
 * The socket writes of one faulted stream connection: line endings, a BOM,
 * tiny chunks, a byte cut and resets, on top of a node:http response. Every
 * write goes through one queue, so a heartbeat never lands inside a
 * chunked frame, and each write waits for `drain` (a slow reader holds the
 * server's memory to one socket buffer, not to the run's whole log).
 */
import type { ServerResponse } from "node:http";
import type { ConnectionPlan } from "./plan.js";

export class SocketWriter {
  /** Body bytes written so far (for `cut-bytes`). */
  private written = 0;
  private tail: Promise<boolean> = Promise.resolve(true);
  private gone = false;
  /** Socket writes made (a chunked frame is several). */
  writes = 0;
  /** This side cut the connection (`reset`), as opposed to the client closing it. */
  wasReset = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly plan: ConnectionPlan,
  ) {
    res.once("close", () => (this.gone = true));
  }

  /** The connection is over (closed by either side, cut, or ended). */
  get closed(): boolean {
    return this.gone;
  }

  /** Writes SSE text written with `\n` line ends, in the plan's line ending. Resolves false once the connection is gone (or was cut by `cut-bytes`). */
  text(text: string, options: { cutAt?: number } = {}): Promise<boolean> {
    const eol = this.plan.eol;
    const bytes = Buffer.from(eol === "\n" ? text : text.replace(/\n/g, eol), "utf8");
    // A frame cut by `cut-frame`: at least one byte, never all of it.
    const part =
      options.cutAt === undefined
        ? bytes
        : bytes.subarray(0, Math.min(bytes.length - 1, 1 + Math.floor(options.cutAt * (bytes.length - 1))));
    const cut = options.cutAt !== undefined;
    return (this.tail = this.tail.then(async () => {
      const ok = await this.bytes(part);
      if (ok && cut) this.reset();
      return ok && !cut;
    }));
  }

  /** Raw bytes (the BOM), through the same queue. */
  raw(bytes: Uint8Array): Promise<boolean> {
    return (this.tail = this.tail.then(() => this.bytes(bytes)));
  }

  /** After what is queued: end the response cleanly (the chunked terminator is sent). */
  end(): Promise<void> {
    return this.tail.then(() => {
      if (!this.gone) this.res.end();
      this.gone = true;
    });
  }

  /**
   * Abrupt end: what is written is flushed, then the socket closes without
   * the chunked terminator, so the client sees a dropped connection, not the
   * end of the response.
   */
  reset(): void {
    this.gone = true;
    this.wasReset = true;
    this.res.socket?.destroySoon();
  }

  private async bytes(bytes: Uint8Array): Promise<boolean> {
    let rest = bytes;
    if (this.plan.cutBytes !== undefined && this.written + rest.length >= this.plan.cutBytes) {
      rest = rest.subarray(0, this.plan.cutBytes - this.written);
      const ok = await this.pieces(rest);
      if (ok) this.reset();
      return false;
    }
    return this.pieces(rest);
  }

  private async pieces(bytes: Uint8Array): Promise<boolean> {
    const size = this.plan.chunkBytes ?? bytes.length;
    for (let at = 0; at < bytes.length; at += size) {
      if (this.gone) return false;
      // A macrotask between pieces, so each leaves as its own TCP segment (the server sets noDelay).
      if (at > 0) await new Promise((resolve) => setImmediate(resolve));
      if (this.gone) return false;
      const piece = bytes.subarray(at, at + size);
      this.written += piece.length;
      this.writes++;
      if (!this.res.write(piece)) await this.drained();
    }
    return !this.gone;
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off("drain", done);
        this.res.off("close", done);
        resolve();
      };
      this.res.on("drain", done);
      this.res.on("close", done);
    });
  }
}
