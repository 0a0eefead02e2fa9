// All configuration: one zod schema, read once from argv + env. The only reader of process.env.
import { homedir } from "node:os";
import { embedUrlProblem } from "./shared/embed-url.js";
import { delimiter, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { brokenNameRule } from "./tool-kit/args/names.js";
import { isLoopbackHost } from "./transports/http/hosts.js";

/** A bad setting: `message` is the one line printed on stderr before exiting with code 2. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** On: 1, true, yes, on; off: 0, false, no, off (any case); a bare command-line flag is on. */
const flag = (setting: string) =>
  z
    .union([z.boolean(), z.string()])
    .transform((v, ctx) => {
      if (typeof v === "boolean") return v;
      const s = v.trim().toLowerCase();
      if (["1", "true", "yes", "on"].includes(s)) return true;
      if (["0", "false", "no", "off"].includes(s)) return false;
      ctx.issues.push({ code: "custom", input: v, message: `${setting} must be 1 or 0 (true or false)` });
      return z.NEVER;
    })
    .default(false);

const int = (setting: string, min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: () => `${setting} must be an integer from ${min} to ${max}` })
    .int({ error: () => `${setting} must be an integer from ${min} to ${max}` })
    .min(min, { error: () => `${setting} must be an integer from ${min} to ${max}` })
    .max(max, { error: () => `${setting} must be an integer from ${min} to ${max}` })
    .default(fallback);

/** A comma-separated list of names, blanks dropped. */
const nameList = z.string().transform((s) => s.split(",").map((n) => n.trim()).filter((n) => n !== ""));

export const SETTINGS = {
  apiKey: "PINECONE_API_KEY",
  controllerUrl: "PINECONE_CONTROLLER_HOST",
  apiVersion: "PINECONE_API_VERSION",
  dataDir: "--data-dir / VECDB_DATA_DIR",
  timeoutMs: "--timeout-ms / VECDB_TIMEOUT_MS",
  concurrency: "--concurrency / VECDB_CONCURRENCY",
  retries: "--retries / VECDB_RETRIES",
  logLevel: "--log-level / VECDB_LOG_LEVEL",
  allowDirs: "--allow-dir / VECDB_ALLOW_DIRS",
  readOnly: "--read-only / VECDB_READ_ONLY",
  allowDestructive: "--allow-destructive / VECDB_ALLOW_DESTRUCTIVE",
  indexes: "--indexes / VECDB_INDEXES",
  embedUrl: "--embed-url / VECDB_EMBED_URL",
  embedKey: "VECDB_EMBED_KEY",
  embedTimeoutMs: "VECDB_EMBED_TIMEOUT_MS",
  httpPort: "--port / VECDB_HTTP_PORT",
  httpHost: "--host / VECDB_HTTP_HOST",
  httpToken: "VECDB_HTTP_TOKEN",
  httpAllowedHosts: "--allowed-hosts / VECDB_HTTP_ALLOWED_HOSTS",
  httpIdleTimeoutS: "--idle-timeout-s / VECDB_HTTP_IDLE_TIMEOUT_S",
  httpMaxSessions: "--max-sessions / VECDB_HTTP_MAX_SESSIONS",
  httpMaxSessionsPerAddress: "--max-sessions-per-address / VECDB_HTTP_MAX_SESSIONS_PER_ADDRESS",
  httpMaxConnectionsPerAddress: "--max-connections-per-address / VECDB_HTTP_MAX_CONNECTIONS_PER_ADDRESS",
  httpBodyMbInFlight: "--max-body-mb-in-flight / VECDB_HTTP_MAX_BODY_MB_IN_FLIGHT",
  httpRequestTimeoutS: "--request-timeout-s / VECDB_HTTP_REQUEST_TIMEOUT_S",
  httpShutdownGraceS: "--shutdown-grace-s / VECDB_HTTP_SHUTDOWN_GRACE_S",
  httpSendTimeoutS: "--send-timeout-s / VECDB_HTTP_SEND_TIMEOUT_S",
  localIdleS: "--local-idle-s / VECDB_LOCAL_IDLE_S",
  toolsets: "--toolsets / VECDB_TOOLSETS",
  tools: "--tools / VECDB_TOOLS",
  excludeTools: "--exclude-tools / VECDB_EXCLUDE_TOOLS",
  maxResultTokens: "--max-result-tokens / VECDB_MAX_RESULT_TOKENS",
} as const;

export const configSchema = z.object({
  // ── Connection ────────────────────────────────────────────────────────────────────────────────
  /** "remote": the service at controllerUrl with apiKey; "local": the embedded local service. */
  mode: z.enum(["remote", "local"]),
  /** Sent as Api-Key. In local mode main.ts fills in the embedded service's own key. */
  apiKey: z
    .string()
    .min(1, { error: () => `${SETTINGS.apiKey} must not be empty (unset it to use the embedded local service)` })
    // It travels as a header value, which cannot hold them: every call would fail with a misleading error.
    .regex(/^[^\u0000-\u001f\u007f]*$/, { error: () => `${SETTINGS.apiKey} must not contain line breaks or other control characters` })
    .optional(),
  controllerUrl: z
    .string()
    .refine((s) => /^https?:\/\/[^/?#\s]+\/?$/.test(s) && URL.canParse(s), {
      error: () => `${SETTINGS.controllerUrl} must be an http:// or https:// URL with no path, e.g. https://api.pinecone.io`,
    })
    // A user name or password in the URL would never be sent (the API key authenticates), yet would be printed.
    .refine((s) => !s.includes("@"), {
      error: () => `${SETTINGS.controllerUrl} must not hold a user name or password (user:pass@); the API key authenticates — remove them`,
    })
    .transform((s) => s.replace(/\/$/, ""))
    .default("https://api.pinecone.io"),
  apiVersion: z
    .string()
    .regex(/^(\d{4}-\d{2}|unstable)$/, { error: () => `${SETTINGS.apiVersion} must look like 2026-04 (YYYY-MM) or be "unstable"` })
    .default("2026-04"),

  // ── Requests ─────────────────────────────────────────────────────────────────────────────────
  timeoutMs: int(SETTINGS.timeoutMs, 100, 600_000, 30_000),
  concurrency: int(SETTINGS.concurrency, 1, 64, 8),
  retries: int(SETTINGS.retries, 0, 10, 4),

  // ── Logging ──────────────────────────────────────────────────────────────────────────────────
  /** Lowest level written to stderr (MCP clients choose their own level with logging/setLevel). */
  logLevel: z
    .enum(["debug", "info", "warning", "error"], {
      error: () => `${SETTINGS.logLevel} must be one of debug, info, warning, error`,
    })
    .default("info"),

  // ── Embedded local service (used when mode is "local") ───────────────────────────────────────
  dataDir: z.string().min(1, { error: () => `${SETTINGS.dataDir} must not be empty` }),
  /** An OpenAI-compatible embeddings server whose models the embedded service offers, e.g. http://127.0.0.1:11434/v1. */
  embedUrl: z
    .string()
    .refine((s) => embedUrlProblem(s) === undefined, { error: (issue) => `${SETTINGS.embedUrl} ${embedUrlProblem(String(issue.input))}` })
    .optional(),
  /** Sent to that server as a bearer token (VECDB_EMBED_KEY). Never logged. */
  embedKey: z.string().optional(),
  embedTimeoutMs: int(SETTINGS.embedTimeoutMs, 100, 600_000, 30_000),
  /**
   * "shared": one service per data dir, found or started detached, used by every MCP server on it (issue 15);
   * "embedded": in this process, owning the data dir for its lifetime (--local with --data-dir on the command line).
   */
  localService: z.enum(["shared", "embedded"]).default("shared"),
  /** A shared service this server starts stops after this long with no MCP server attached and no request. */
  localIdleS: int(SETTINGS.localIdleS, 1, 86_400, 600),

  // ── Access (enforced per call in src/mcp/access.ts) ───────────────────────────────────────────────
  /** Only tools with readOnlyHint exist. */
  readOnly: flag(SETTINGS.readOnly),
  /** delete_collection, delete_index and delete_vectors exist only when this is on (and readOnly is off). */
  allowDestructive: flag(SETTINGS.allowDestructive),
  /** When set, the only indexes any tool sees or touches. */
  indexes: z
    .string()
    .transform((s) => s.split(",").map((n) => n.trim()).filter((n) => n !== ""))
    .check(
      z.refine((names) => names.length > 0, { error: () => `${SETTINGS.indexes} must name at least one index, e.g. --indexes docs,faq` }),
      z.refine((names) => names.every((n) => brokenNameRule(n) === undefined), {
        error: (issue) => {
          const bad = (issue.input as string[]).find((n) => brokenNameRule(n) !== undefined) ?? "";
          const broken = brokenNameRule(bad);
          return `${SETTINGS.indexes}: ${JSON.stringify(bad)} is not an index name (it ${broken?.what}; rule: ${broken?.rule})`;
        },
      }),
    )
    .optional(),
  // ── Which tools exist (validated against the registry by src/mcp/access.ts) ───────────────────────
  /** Toolsets to offer ("all", or names); unset: the lean default set. */
  toolsets: nameList.optional(),
  /** Tools added on top of the toolsets. */
  tools: nameList.default([]),
  /** Tools taken away from what the toolsets and --tools give. */
  excludeTools: nameList.default([]),
  /** The estimated tokens one channel of a tool result (text, or structuredContent) may take. */
  maxResultTokens: int(SETTINGS.maxResultTokens, 1_000, 1_000_000, 10_000),
  // ── Transport: stdio, or Streamable HTTP with --http (src/transports/http/server.ts) ────────────────────
  http: z.boolean().default(false),
  /** 0 picks a free port. */
  httpPort: int(SETTINGS.httpPort, 0, 65535, 3333),
  httpHost: z.string().min(1, { error: () => `${SETTINGS.httpHost} must not be empty` }).default("127.0.0.1"),
  /** Bearer token every HTTP request must carry; required when httpHost is not loopback. Never logged. */
  httpToken: z.string().min(16, { error: () => `${SETTINGS.httpToken} must be at least 16 characters` }).optional(),
  /** More Host / Origin names the server is reached by (DNS name, proxy); "name" (any port) or "name:port". */
  httpAllowedHosts: z
    .string()
    .transform((s) => s.split(",").map((h) => h.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:/\[\]@]+)(:\d{1,5})?$/, {
      error: () => `${SETTINGS.httpAllowedHosts} must be a comma-separated list of host names, each optionally with :port`,
    })))
    .default([]),
  /** An HTTP session with no request for this long is closed. */
  httpIdleTimeoutS: int(SETTINGS.httpIdleTimeoutS, 1, 86_400, 1800),
  /** Serve HTTP with no token at all (loopback only): every local user and process can call the server. */
  httpNoToken: z.boolean().default(false),
  httpMaxSessions: int(SETTINGS.httpMaxSessions, 1, 100_000, 256),
  /** Sessions one remote address may hold (a client behind a shared proxy counts as the proxy's address). */
  httpMaxSessionsPerAddress: int(SETTINGS.httpMaxSessionsPerAddress, 1, 100_000, 32),
  /** Open TCP connections one remote address may hold. */
  httpMaxConnectionsPerAddress: int(SETTINGS.httpMaxConnectionsPerAddress, 1, 100_000, 128),
  /** MiB of request bodies in progress at once (received, or their call still running), over all connections. */
  httpBodyMbInFlight: int(SETTINGS.httpBodyMbInFlight, 1, 65_536, 256),
  /** Headers must arrive within this, and the body of a request that opens a session too. */
  httpRequestTimeoutS: int(SETTINGS.httpRequestTimeoutS, 1, 600, 10),
  /** At shutdown, running calls have this long to finish before they are stopped (and answer what landed). */
  httpShutdownGraceS: int(SETTINGS.httpShutdownGraceS, 0, 600, 10),
  /** A response that the client does not read for this long is dropped. */
  httpSendTimeoutS: int(SETTINGS.httpSendTimeoutS, 1, 3600, 60),
  // ── Files: directories import_vectors may read (besides the client's MCP roots), absolute ────
  allowDirs: z.array(z.string().min(1)).default([]),
});

export type Config = z.output<typeof configSchema>;

export const USAGE = `Usage: vecdb-mcp [options]          MCP server on stdio
       vecdb-mcp serve --data-dir DIR [--port N] [--host H] [--api-key-file FILE] [--embed-url URL]   the local service alone
                          (its key: --api-key-file, VECDB_LOCAL_API_KEY, or --api-key KEY, which ps shows; ≥ 16 characters)

Options (environment variable in brackets):
  --local                 use the embedded local service even when PINECONE_API_KEY is set
  --data-dir DIR          data directory of the embedded local service [VECDB_DATA_DIR]
                          default: the user data directory, e.g. ~/.local/share/vecdb-mcp
                          Every server without a key shares one local service per data dir (found, or started in the
                          background); --local with --data-dir runs it inside this process instead, as its only user
  --local-idle-s N        a local service started in the background stops after N s with no client, 1–86400
                          (default 600) [VECDB_LOCAL_IDLE_S]
  --timeout-ms N          per-request timeout, 100–600000 (default 30000) [VECDB_TIMEOUT_MS]
  --concurrency N         upsert requests in flight, 1–64 (default 8) [VECDB_CONCURRENCY]
  --retries N             retries of 429 / 5xx / dropped connections, 0–10 (default 4) [VECDB_RETRIES]
  --log-level LEVEL       lowest level logged on stderr: debug, info, warning, error (default info) [VECDB_LOG_LEVEL]
  --allow-dir DIR         let import_vectors read files under DIR; repeatable (default: only the client's roots)
                          [VECDB_ALLOW_DIRS, several joined with the path delimiter: ":", or ";" on Windows]
  --read-only             offer and allow only the tools that read [VECDB_READ_ONLY=1]
  --allow-destructive     add delete_index, delete_collection and delete_vectors [VECDB_ALLOW_DESTRUCTIVE=1]
  --indexes A,B           limit every tool to these indexes; others are invisible [VECDB_INDEXES]
  --embed-url URL         the embedded service offers the dense models of this OpenAI-compatible embeddings server,
                          e.g. Ollama's http://127.0.0.1:11434/v1 [VECDB_EMBED_URL; its key: VECDB_EMBED_KEY]
  --http                  serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio
  --port N                HTTP port, 0 picks a free one (default 3333) [VECDB_HTTP_PORT]
  --host H                HTTP address (default 127.0.0.1); not loopback → VECDB_HTTP_TOKEN required [VECDB_HTTP_HOST]
  --allowed-hosts A,B     more Host/Origin names the server is reached by, name or name:port [VECDB_HTTP_ALLOWED_HOSTS]
  --idle-timeout-s N      close an HTTP session with no POST for this long, 1–86400 (default 1800) [VECDB_HTTP_IDLE_TIMEOUT_S]
  --insecure-http-no-token  serve HTTP with no token: every local user and process can call the server (loopback only)
  --max-sessions N        HTTP sessions open at once (default 256) [VECDB_HTTP_MAX_SESSIONS]
  --max-sessions-per-address N   sessions one client address may hold (default 32) [VECDB_HTTP_MAX_SESSIONS_PER_ADDRESS]
  --max-connections-per-address N   open connections per client address (default 128) [VECDB_HTTP_MAX_CONNECTIONS_PER_ADDRESS]
  --max-body-mb-in-flight N   MiB of request bodies in progress at once, all clients (default 256) [VECDB_HTTP_MAX_BODY_MB_IN_FLIGHT]
  --request-timeout-s N   headers, and a new session's first request, must arrive within this (default 10) [VECDB_HTTP_REQUEST_TIMEOUT_S]
  --shutdown-grace-s N    at shutdown, running calls get this long before they are stopped (default 10) [VECDB_HTTP_SHUTDOWN_GRACE_S]
  --send-timeout-s N      drop a response the client stops reading for this long (default 60) [VECDB_HTTP_SEND_TIMEOUT_S]
  --toolsets A,B          the toolsets to offer, or "all" (default: the lean default set) [VECDB_TOOLSETS]
  --tools A,B             tools to add to the toolsets [VECDB_TOOLS]
  --exclude-tools A,B     tools to take away [VECDB_EXCLUDE_TOOLS]
  --max-result-tokens N   estimated tokens a result may take in each channel, 1000–1000000 (default 10000)
                          [VECDB_MAX_RESULT_TOKENS]
  --help                  show this text

Environment:
  PINECONE_API_KEY          the service's API key; unset or empty → the embedded local service
  PINECONE_CONTROLLER_HOST  control-plane URL (default https://api.pinecone.io)
  PINECONE_API_VERSION      API version header (default 2026-04)
  VECDB_HTTP_TOKEN          with --http: the bearer token every request must carry (at least 16 characters);
                            unset → a token is generated at start and shown once on stderr
`;

type Env = Record<string, string | undefined>;

/** The embeddings-server settings `vecdb-mcp serve` takes from the environment (its --embed-url wins). */
export function localModelEnv(env: Env = process.env): { embedUrl?: string; embedKey?: string; embedTimeoutMs?: number } {
  const t = Number(env.VECDB_EMBED_TIMEOUT_MS);
  return {
    ...(env.VECDB_EMBED_URL ? { embedUrl: env.VECDB_EMBED_URL } : {}),
    ...(env.VECDB_EMBED_KEY ? { embedKey: env.VECDB_EMBED_KEY } : {}),
    ...(Number.isInteger(t) && t >= 100 && t <= 600_000 ? { embedTimeoutMs: t } : {}),
  };
}

/** What `vecdb-mcp serve` reads from the environment (this file is the only reader of process.env). */
export function serveEnvironment(env: Env = process.env): { apiKey?: string } {
  const key = env.VECDB_LOCAL_API_KEY?.trim();
  return key ? { apiKey: key } : {};
}

/** The default data directory of the embedded local service, per platform. */
export function defaultDataDir(env: Env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (platform === "win32") return join(env.LOCALAPPDATA || join(home, "AppData", "Local"), "vecdb-mcp");
  if (platform === "darwin") return join(home, "Library", "Application Support", "vecdb-mcp");
  return join(env.XDG_DATA_HOME || join(home, ".local", "share"), "vecdb-mcp");
}

/** `{ help: true }` when --help was given; otherwise the checked configuration. Throws ConfigError. */
export function loadConfig(argv: string[], env: Env = process.env): { help: true } | { help: false; config: Config } {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: "boolean" },
        local: { type: "boolean" },
        "data-dir": { type: "string" },
        "timeout-ms": { type: "string" },
        concurrency: { type: "string" },
        retries: { type: "string" },
        "log-level": { type: "string" },
        "allow-dir": { type: "string", multiple: true },
        "read-only": { type: "boolean" },
        "allow-destructive": { type: "boolean" },
        indexes: { type: "string" },
        "embed-url": { type: "string" },
        http: { type: "boolean" },
        port: { type: "string" },
        host: { type: "string" },
        "allowed-hosts": { type: "string" },
        "idle-timeout-s": { type: "string" },
        "insecure-http-no-token": { type: "boolean" },
        "max-sessions": { type: "string" },
        "max-sessions-per-address": { type: "string" },
        "max-connections-per-address": { type: "string" },
        "max-body-mb-in-flight": { type: "string" },
        "request-timeout-s": { type: "string" },
        "shutdown-grace-s": { type: "string" },
        "send-timeout-s": { type: "string" },
        "local-idle-s": { type: "string" },
        toolsets: { type: "string" },
        tools: { type: "string" },
        "exclude-tools": { type: "string" },
        "max-result-tokens": { type: "string" },
      },
    }));
  } catch (err) {
    const detail = (err instanceof Error ? err.message : String(err)).split(/\.\s|\n/)[0].replace(/\.$/, "");
    // Not a list of the options here: --help has them all, with their environment variables.
    throw new ConfigError(`${detail}; vecdb-mcp --help lists the options`);
  }
  if (values.help) return { help: true };

  const blank = (s: string | undefined) => (s === undefined || s === "" ? undefined : s);
  // A desktop bundle passes "" for an optional key left blank: that means unset.
  // Surrounding white space (a line break pasted along with the key) is never part of a key: a header drops it.
  const apiKey = blank(env.PINECONE_API_KEY?.trim());
  const raw = {
    mode: values.local || !apiKey ? "local" : "remote",
    apiKey: values.local ? undefined : apiKey,
    controllerUrl: blank(env.PINECONE_CONTROLLER_HOST),
    apiVersion: blank(env.PINECONE_API_VERSION),
    timeoutMs: values["timeout-ms"] ?? blank(env.VECDB_TIMEOUT_MS),
    concurrency: values.concurrency ?? blank(env.VECDB_CONCURRENCY),
    retries: values.retries ?? blank(env.VECDB_RETRIES),
    logLevel: values["log-level"] ?? blank(env.VECDB_LOG_LEVEL),
    // --allow-dir replaces VECDB_ALLOW_DIRS (as every flag replaces its variable); relative dirs are from the cwd.
    allowDirs: ((values["allow-dir"] as string[] | undefined) ?? (env.VECDB_ALLOW_DIRS ?? "").split(delimiter))
      .filter((d) => d !== "")
      .map((d) => resolve(d)),
    readOnly: values["read-only"] ?? blank(env.VECDB_READ_ONLY),
    allowDestructive: values["allow-destructive"] ?? blank(env.VECDB_ALLOW_DESTRUCTIVE),
    indexes: values.indexes ?? blank(env.VECDB_INDEXES),
    dataDir: values["data-dir"] ?? blank(env.VECDB_DATA_DIR) ?? defaultDataDir(env),
    embedUrl: values["embed-url"] ?? blank(env.VECDB_EMBED_URL),
    embedKey: blank(env.VECDB_EMBED_KEY),
    embedTimeoutMs: blank(env.VECDB_EMBED_TIMEOUT_MS),
    http: values.http === true,
    httpPort: values.port ?? blank(env.VECDB_HTTP_PORT),
    httpHost: values.host ?? blank(env.VECDB_HTTP_HOST),
    httpToken: blank(env.VECDB_HTTP_TOKEN),
    httpAllowedHosts: values["allowed-hosts"] ?? blank(env.VECDB_HTTP_ALLOWED_HOSTS),
    httpIdleTimeoutS: values["idle-timeout-s"] ?? blank(env.VECDB_HTTP_IDLE_TIMEOUT_S),
    httpNoToken: values["insecure-http-no-token"] === true,
    httpMaxSessions: values["max-sessions"] ?? blank(env.VECDB_HTTP_MAX_SESSIONS),
    httpMaxSessionsPerAddress: values["max-sessions-per-address"] ?? blank(env.VECDB_HTTP_MAX_SESSIONS_PER_ADDRESS),
    httpMaxConnectionsPerAddress: values["max-connections-per-address"] ?? blank(env.VECDB_HTTP_MAX_CONNECTIONS_PER_ADDRESS),
    httpBodyMbInFlight: values["max-body-mb-in-flight"] ?? blank(env.VECDB_HTTP_MAX_BODY_MB_IN_FLIGHT),
    httpRequestTimeoutS: values["request-timeout-s"] ?? blank(env.VECDB_HTTP_REQUEST_TIMEOUT_S),
    httpShutdownGraceS: values["shutdown-grace-s"] ?? blank(env.VECDB_HTTP_SHUTDOWN_GRACE_S),
    httpSendTimeoutS: values["send-timeout-s"] ?? blank(env.VECDB_HTTP_SEND_TIMEOUT_S),
    localService: values.local && values["data-dir"] !== undefined ? "embedded" : "shared",
    localIdleS: values["local-idle-s"] ?? blank(env.VECDB_LOCAL_IDLE_S),
    toolsets: values.toolsets ?? blank(env.VECDB_TOOLSETS),
    tools: values.tools ?? blank(env.VECDB_TOOLS),
    excludeTools: values["exclude-tools"] ?? blank(env.VECDB_EXCLUDE_TOOLS),
    maxResultTokens: values["max-result-tokens"] ?? blank(env.VECDB_MAX_RESULT_TOKENS),
  };
  // Parsed once per process: zod's fast path, generated and compiled on a schema's first parse, would cost more than
  // it saves (~1 ms of every cold start).
  const parsed = configSchema.safeParse(raw, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue.path[0] as keyof typeof raw;
    const given = raw[key];
    // Never echo a key back, nor credentials in a URL.
    const secret = key === "apiKey" || key === "httpToken" || key === "embedKey" || (key === "embedUrl" && /[?#]/.test(String(given))) || (typeof given === "string" && given.includes("@"));
    const got = secret || typeof given !== "string" ? "" : ` (got ${JSON.stringify(given)})`;
    throw new ConfigError(`${issue.message}${got}`);
  }
  const config = parsed.data;
  const httpFlags = ["port", "host", "allowed-hosts", "idle-timeout-s", "insecure-http-no-token", "max-sessions", "max-sessions-per-address",
    "max-connections-per-address", "max-body-mb-in-flight", "request-timeout-s", "shutdown-grace-s", "send-timeout-s"] as const;
  for (const flag of httpFlags) {
    if (values[flag] !== undefined && !config.http) throw new ConfigError(`--${flag} needs --http (the HTTP transport)`);
  }
  if (config.httpNoToken && config.httpToken) {
    throw new ConfigError(`--insecure-http-no-token and ${SETTINGS.httpToken} contradict each other: give one of them`);
  }
  if (config.httpNoToken && !isLoopbackHost(config.httpHost)) {
    throw new ConfigError(
      `--insecure-http-no-token is refused on ${config.httpHost}, which is not a loopback address: leave it out and a token is generated (or set ${SETTINGS.httpToken})`,
    );
  }
  return { help: false, config };
}
