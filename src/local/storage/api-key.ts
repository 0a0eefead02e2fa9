// The accepted API key: the one given, else the one kept in <dataDir>/api-key, else a new random one
// written there (mode 0600) so it stays the same for this data dir.
import { randomBytes } from "node:crypto";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const API_KEY_FILE = "api-key";

export function resolveApiKey(dataDir: string, given: string | undefined): string {
  if (given !== undefined && given !== "") return given;
  const path = join(dataDir, API_KEY_FILE);
  try {
    const kept = readFileSync(path, "utf8").trim();
    if (kept) return kept;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  const key = `local-${randomBytes(24).toString("base64url")}`;
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // the mode given above is masked by umask
  return key;
}
