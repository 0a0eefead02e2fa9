// `vecdb-mcp serve [options]`: its settings read and checked (the same declarations as the MCP server's), then the
// local service alone (src/local/serve-command.ts), loaded only now.
import { readFileSync } from "node:fs";
import { ConfigError, loadServeConfig, type ServeConfig } from "./config.js";
import { printOnly } from "./main.js";
import { serveSynopsis } from "./settings-help.js";
import { localKeyCheck } from "./settings.js";

export async function runServeCommand(argv: string[]): Promise<void> {
  let settings: ServeConfig;
  let apiKey: string | undefined;
  try {
    const loaded = loadServeConfig(argv);
    if (loaded.help) return printOnly("serve", loaded);
    settings = loaded.config;
    apiKey = keyOf(settings);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`vecdb-mcp serve: ${e.message}\n${serveSynopsis()}\n`);
    process.exitCode = 2;
    return;
  }
  const { serveLocal } = await import("./local/serve-command.js");
  await serveLocal({ ...settings, apiKey });
}

/** The key from --api-key-file (checked as --api-key / VECDB_LOCAL_API_KEY are), or the one given by those. */
function keyOf(settings: ServeConfig): string | undefined {
  if (settings.apiKeyFile === undefined) return settings.apiKey;
  let key: string;
  try {
    key = readFileSync(settings.apiKeyFile, "utf8").trim();
  } catch (e) {
    throw new ConfigError(`--api-key-file ${settings.apiKeyFile}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const checked = localKeyCheck(`the key in ${settings.apiKeyFile}`).safeParse(key);
  if (!checked.success) throw new ConfigError(checked.error.issues[0].message);
  return key;
}
