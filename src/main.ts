// `vecdb-mcp [options]`: configuration → (embedded local service) → Service → MCP server on stdio.
import { childEnvironment, ConfigError, freezeConfig, loadConfig, onHttpOwnDataDir, type Config } from "./config.js";
import { createLogger } from "./log.js";
import { createServer } from "./mcp/server.js";
import { loadToolCatalog } from "./mcp/tool-catalog.js";
import { checkSelection } from "./mcp/tool-selection.js";
import { lazySupply, type ServiceSupply } from "./mcp/service-supply.js";
import { namedServices } from "./named-services.js";
import { jitFromNowOn } from "./mcp/zod-jit.js";
import { packageVersion } from "./package-version.js";
import { helpText } from "./settings-help.js";
import type { Command } from "./settings.js";
import { shutdownOnce } from "./shutdown.js";
import { LineStdioTransport } from "./transports/stdio.js";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

/** --help, or --version: not in protocol mode, these only print and exit. */
export function printOnly(command: Command, loaded: { version?: true }): void {
  process.stdout.write(loaded.version ? `${packageVersion()}\n` : helpText(command, packageVersion()));
}

export async function runMcpCommand(argv: string[]): Promise<void> {
  let loaded: ReturnType<typeof loadConfig>;
  try {
    loaded = loadConfig(argv);
    if (!loaded.help) checkSelection(loaded.config); // an unknown toolset or tool name: refused before anything starts
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`vecdb-mcp: ${err.message}\n`);
    process.exitCode = 2;
    return;
  }
  if (loaded.help) return printOnly("mcp", loaded);

  // Over HTTP there is always a token unless --insecure-http-no-token says otherwise (part of the configuration from
  // the start, so that logs redact it).
  const tokenGenerated = loaded.config.http && !loaded.config.httpToken && !loaded.config.httpNoToken;
  const config: Readonly<Config> = tokenGenerated
    ? freezeConfig({ ...loaded.config, httpToken: (await import("./transports/http/token.js")).newHttpToken() })
    : loaded.config;
  // The keys of the local service in use (the shared one's can change when it is started again).
  const localKeys: string[] = [];
  // Never a placeholder key (loadConfig leaves it out), whose runs of characters would match variable names.
  const secrets = () => [config.apiKey, config.otherApiKey, config.httpToken, config.embedKey, config.stateSecret, ...localKeys];
  const log = createLogger({ secrets, stderrLevel: config.logLevel });
  let local: { controlUrl: string; apiKey: string; close(): Promise<void> } | undefined;
  let shared: (ServiceSupply & { close(): Promise<void> }) | undefined;
  const why = argv.includes("--local")
    ? "--local given"
    : config.apiKeyIgnored === "placeholder"
      ? "PINECONE_API_KEY holds a placeholder"
      : "PINECONE_API_KEY is not set";
  if (config.apiKeyIgnored === "placeholder") {
    log.warning("PINECONE_API_KEY looks like a placeholder copied from an example, not a key: it is not sent anywhere, and this server uses the local service; set your real key to use the hosted service");
  }
  const startShared = async (reason: string) => {
    const { sharedLocalSupply } = await import("./shared-local.js");
    return sharedLocalSupply({
      dataDir: config.dataDir,
      bin: process.argv[1],
      idleStopS: config.localIdleS,
      serveArgs: config.allowDirs.flatMap((dir) => ["--allow-dir", dir]),
      serveEnv: childEnvironment(config.embedUrl ? { VECDB_EMBED_URL: config.embedUrl } : {}), // by environment: a command line shows in ps
      http: { apiVersion: config.apiVersion, timeoutMs: config.timeoutMs, retries: config.retries },
      log,
      why: onHttpOwnDataDir(config) ? `${reason} (an HTTP server's own data dir, apart from the desktop servers' personal one)` : reason,
      onKey: (key) => localKeys.push(key),
    });
  };
  if (config.mode === "local" && config.localService === "shared") {
    shared = await startShared(why);
  } else if (config.mode === "local") {
    // Loaded only here, so the remote path never loads the local service's storage (lmdb).
    jitFromNowOn(); // the local service's schemas parse whole upserts (src/mcp/zod-jit.ts)
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
    localKeys.push(local.apiKey);
    log.info(`${why}: using the embedded local service at ${local.controlUrl} (data dir ${config.dataDir})`);
  } else if (config.embedUrl) {
    log.warning("--embed-url / VECDB_EMBED_URL is ignored: it serves the embedded local service, and this server uses the hosted service's own models");
  }

  // The API client (src/api: its answer schemas, the HTTP client, node:crypto) is made on the first call that needs
  // it, not before the server answers: a client lists the tools first, and a cold start should not pay for it.
  const service: ServiceSupply & { close(): Promise<void> } = shared ?? lazySupply(async () => {
    const { createService } = await import("./api/service.js");
    return createService({
      apiKey: local?.apiKey ?? config.apiKey ?? "",
      apiVersion: config.apiVersion,
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      controllerUrl: local?.controlUrl ?? config.controllerUrl,
      localService: local !== undefined,
    });
  });
  const services = namedServices({
    config,
    main: service,
    startLocal: () => startShared("copy_index named the local service"),
  });
  const closeService = async () => {
    await services.close();
    await service.close();
  };
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
      newServer: ({ stopping, stop, selection }) => createServer(config, service, { tools, log, secrets, stopping, stop, session: selection, services }),
    });
  }
  // serveStdio picks the era from the client's first message (initialize, or a 2026-07-28 request) and builds the
  // server for the connection then; our line transport carries the bytes (stdio.ts says why).
  const connection = serveStdio(() => createServer(config, service, { tools, log, secrets, services }), {
    transport: new LineStdioTransport(),
    onerror: (err) => log.info(`protocol: ${err.message}`),
  });

  const shutdown = shutdownOnce(log, [() => connection.close(), closeService, () => local?.close()]);
  process.stdin.on("end", () => void shutdown("stdin closed"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
