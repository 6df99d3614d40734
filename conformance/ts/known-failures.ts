/**
 * A known-failures list: one case id (`<file>::<description>`) per line;
 * blank lines and `#` lines (the reasons, written above the ids they
 * explain) are ignored.
 */
export function parseKnownFailures(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}
