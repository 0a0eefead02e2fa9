// A bulk import from file:// reads a folder on this machine. The shared local service may have been started by
// another server with other --allow-dir folders, so the service's own check is not enough: the folder must also be
// one THIS server may read. Checked before the request is sent; the service still checks against its own folders.
import { realpath } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { isInside, resolveRoots } from "../common/safe-open.js";
import { ToolError } from "./tool-error.js";

/** Throws a refusal when `uri` is a file:// URL outside every folder in `allowed`; other schemes pass. */
export async function checkImportFolder(uri: string, allowed: readonly string[]): Promise<void> {
  if (!/^file:/i.test(uri)) return;
  const roots = await resolveRoots(allowed);
  if (!roots.ok) throw new ToolError({ problem: `uri ${uri.slice(0, 200)} is a folder on this machine, and this server may read none. ${roots.message}`, next: "Ask the user to start this server with --allow-dir DIR and put the import folder under DIR." });
  let path: string;
  try {
    path = await realpath(fileURLToPath(uri));
  } catch (e) {
    throw new ToolError({ problem: `uri ${uri.slice(0, 200)} does not name a readable folder (${(e as NodeJS.ErrnoException).code ?? String(e)}).`, next: "Give file:///absolute/path/to/import-folder." });
  }
  if (!roots.roots.real.some((r) => r !== undefined && isInside(path, r))) {
    throw new ToolError({
      problem: `uri ${uri.slice(0, 200)} is not under a folder this server may read. ${roots.roots.text}`,
      next: "Move the import folder under one of them, or ask the user to start this server with --allow-dir for it.",
    });
  }
}
