// `vecdb-mcp [options]`: configuration → (embedded local service) → Service → MCP server on stdio.
import { createService, type Service } from "./api/service.js";
import { ConfigError, loadConfig, USAGE, type Config } from "./config.js";
import { createLogger } from "./log.js";
import { createServer } from "./mcp/server.js";
import { loadToolCatalog } from "./mcp/tool-catalog.js";
import type { ServiceSupply } from "./mcp/service-supply.js";
import { shutdownOnce } from "./shutdown.js";
import { LineStdioTransport } from "./transports/stdio.js";
import { newHttpToken } from "./transports/http/token.js";

export async function runMcpCommand(argv: string[]): Promise<void> {
  let loaded: ReturnType<typeof loadConfig>;
  try {
    loaded = loadConfig(argv);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`vecdb-mcp: ${err.message}\n`);
    process.exitCode = 2;
    return;
  }
  if (loaded.help) {
    process.stdout.write(USAGE); // not in protocol mode: --help only prints and exits
    return;
  }

  let config: Config = loaded.config;
  // Over HTTP there is always a token unless --insecure-http-no-token says otherwise (set here, so logs redact it).
  const tokenGenerated = config.http && !config.httpToken && !config.httpNoToken;
  if (tokenGenerated) config = { ...config, httpToken: newHttpToken() };
  const localKeys: string[] = [];
  const log = createLogger({ secrets: () => [config.apiKey, config.httpToken, config.embedKey, ...localKeys], stderrLevel: config.logLevel });
  let local: { controlUrl: string; apiKey: string; close(): Promise<void> } | undefined;
  let shared: (ServiceSupply & { close(): Promise<void> }) | undefined;
  const why = argv.includes("--local") ? "--local given" : "PINECONE_API_KEY is not set";
  if (config.mode === "local" && config.localService === "shared") {
    const { sharedLocalSupply } = await import("./shared-local.js");
    const settings = config;
    shared = sharedLocalSupply({
      dataDir: config.dataDir,
      bin: process.argv[1],
      idleStopS: config.localIdleS,
      serveArgs: config.allowDirs.flatMap((dir) => ["--allow-dir", dir]),
      serveEnv: config.embedUrl ? { VECDB_EMBED_URL: config.embedUrl } : {}, // by environment: a command line shows in ps
      http: { apiVersion: config.apiVersion, timeoutMs: config.timeoutMs, retries: config.retries },
      log,
      why,
      onKey: (key) => {
        localKeys.push(key);
        settings.apiKey = key; // what results and log notifications are redacted of (src/mcp/server.ts)
      },
    });
  } else if (config.mode === "local") {
    // Loaded only here, so the remote path never loads the local service's storage (lmdb).
    const { startLocalService } = await import("./local/index.js");
    try {
      local = await startLocalService({
        dataDir: config.dataDir,
        port: 0,
        host: "127.0.0.1",
        log: (line) => log.debug(line),
        embedUrl: config.embedUrl,
        embedKey: config.embedKey,
        embedTimeoutMs: config.embedTimeoutMs,
        allowDirs: config.allowDirs,
      });
    } catch (err) {
      const reason = err instanceof Error ? err.message.split("\n")[0] : String(err);
      process.stderr.write(`vecdb-mcp: the embedded local service could not start in ${config.dataDir}: ${reason}\n`);
      process.exitCode = 1;
      return;
    }
    config = { ...config, apiKey: local.apiKey, controllerUrl: local.controlUrl };
    log.info(`${why}: using the embedded local service at ${local.controlUrl} (data dir ${config.dataDir})`);
  } else if (config.embedUrl) {
    log.warning("--embed-url / VECDB_EMBED_URL is ignored: it serves the embedded local service, and this server uses the hosted service's own models");
  }

  const service: Service | ServiceSupply = shared ?? createService({
    apiKey: config.apiKey ?? "",
    apiVersion: config.apiVersion,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    controllerUrl: config.controllerUrl,
    localService: local !== undefined,
  });
  const closeService = () => ("close" in service ? service.close() : Promise.resolve());
  const tools = await loadToolCatalog(); // declared by the build: no tool module is loaded before its first call
  if (config.http) {
    const { runHttpTransport } = await import("./transports/http/command.js");
    const release = async () => {
      await closeService().catch(() => {});
      await local?.close().catch(() => {});
    };
    return runHttpTransport({
      config,
      log,
      release,
      tokenGenerated,
      newServer: ({ stopping, stop }) => createServer(config, service, { tools, log, stopping, stop }),
    });
  }
  const server = createServer(config, service, { tools, log });
  const transport = new LineStdioTransport();

  const shutdown = shutdownOnce(log, [() => server.close(), closeService, () => local?.close()]);
  process.stdin.on("end", () => void shutdown("stdin closed"));
  server.server.onclose = () => void shutdown("transport closed");
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await server.connect(transport);
}
