/**
 * The folder a schema may read files from: the root schema file's folder,
 * or a wider one the user names (`--root <dir>`). A `$ref` to a file outside
 * it (`/etc/passwd`, `../../secret.json`) is refused before the file is
 * read. Paths are compared after resolving symbolic links, so a link inside
 * the folder that points out of it is outside too.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";

export class SchemaRoot {
  private constructor(
    /** The folder as people see it (relative to the working directory), for messages. */
    readonly shown: string,
    private readonly real: string,
  ) {}

  /** `folder` is absolute; `shown` is how messages name it. */
  static async of(folder: string, shown: string): Promise<SchemaRoot> {
    return new SchemaRoot(shown, await realpath(folder).catch(() => folder));
  }

  /** Whether `file` (absolute) lies in this folder. A file that does not exist is judged by its path. */
  async contains(file: string): Promise<boolean> {
    const real = await realpath(file).catch(() => file);
    const relative = path.relative(this.real, real);
    return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
  }
}
