// Every setting of both commands, declared once: its flag, environment variable, type and range, default, the commands
// it applies to, and what it does. The parser (src/config.ts), --help of both commands (src/settings-help.ts), and the
// generated documentation (docs/configuration.md, README's settings block, manifest.json, server.json) come from here.
import { isIP } from "node:net";
import { delimiter, resolve } from "node:path";
import { z } from "zod";
import { embedUrlProblem } from "./common/embed-url.js";
import { brokenNameRule } from "./tool-kit/args/names.js";

/** "mcp": `vecdb-mcp`, the MCP server; "serve": `vecdb-mcp serve`, the local service alone. */
export type Command = "mcp" | "serve";
export const COMMAND_NAME: Record<Command, string> = { mcp: "vecdb-mcp", serve: "vecdb-mcp serve" };

export type Group = "Hosted service" | "Local service" | "Requests" | "Access" | "Tools" | "Logging" | "HTTP transport" | "Service alone";
export const GROUPS: readonly Group[] = ["Hosted service", "Local service", "Access", "Tools", "Requests", "Logging", "HTTP transport", "Service alone"];

export interface Setting {
  /** The field of the checked configuration. */
  key: string;
  /** The command-line flag, without "--". */
  flag?: string;
  env?: string;
  /** What --help shows after the flag: N, DIR, URL… (none: an on/off switch). */
  value?: string;
  /** "integer": min–max; "switch": on/off; "list": comma-separated; "dirs": repeatable flag, or the path delimiter. */
  type: "integer" | "switch" | "text" | "list" | "dirs" | "choice";
  min?: number;
  max?: number;
  choices?: readonly string[];
  /** Used when neither the flag nor the variable is given, per command (a command not named: no default). */
  defaults?: Partial<Record<Command, string | number | boolean>>;
  /** The default in words, where it is computed (e.g. the user data directory); per command where they differ. */
  defaultText?: string | Partial<Record<Command, string>>;
  commands: readonly Command[];
  group: Group;
  /** One line, lower case, no final period: what the setting does. */
  doc: string;
  /** Never echoed back, redacted from every text. */
  secret?: boolean;
  /** The check beyond the type (receives the setting's label, e.g. "--embed-url / VECDB_EMBED_URL", for messages). */
  check?: (label: string) => z.ZodType;
  /** A setting of the desktop bundle (manifest.json user_config), filled into `env`. */
  bundle?: { id: string; type: "string" | "directory" | "boolean"; title: string; description: string };
}

/** The tools --allow-destructive adds. */
export const DELETE_TOOLS = ["delete_index", "delete_collection", "delete_vectors", "delete_namespace", "delete_backup", "delete_backup_schedule", "delete_namespace_alias", "delete_documents"] as const;

const url = (label: string) =>
  z.string().refine((s) => embedUrlProblem(s) === undefined, { error: (issue) => `${label} ${embedUrlProblem(String(issue.input))}` });

/** A key the local service is given: a header value, and long enough not to be guessed (or tried) quickly. */
export function localKeyCheck(label: string) {
  return z
    .string()
    .regex(/^[^\u0000-\u001f\u007f]*$/, { error: () => `${label} must not contain line breaks or other control characters` })
    .refine((k) => [...k].length >= 16, {
      error: () => `${label} must be at least 16 characters (a short key is guessed quickly); leave it out and one is generated`,
    });
}

/** A control-plane URL: http(s), no path, no credentials; the final slash dropped. */
function controllerUrlCheck(label: string) {
  return z
    .string()
    .refine((s) => /^https?:\/\/[^/?#\s]+\/?$/.test(s) && URL.canParse(s), {
      error: () => `${label} must be an http:// or https:// URL with no path, e.g. https://api.pinecone.io`,
    })
    // A user name or password in the URL would never be sent (the API key authenticates), yet would be printed.
    .refine((s) => !s.includes("@"), {
      error: () => `${label} must not hold a user name or password (user:pass@); the API key authenticates — remove them`,
    })
    .transform((s) => s.replace(/\/$/, ""));
}

const nameList = z.string().transform((s) => s.split(",").map((n) => n.trim()).filter((n) => n !== ""));
/** "10.0.0.5", "::1", "192.168.1.0/24", "fd00::/8". */
function isAddressOrRange(s: string): boolean {
  const [address, bits, ...rest] = s.split("/");
  const kind = isIP(address);
  if (kind === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128));
}

export const SETTINGS = [
  // ── Hosted service ──────────────────────────────────────────────────────────────────────────────────
  {
    key: "apiKey", env: "PINECONE_API_KEY", type: "text", commands: ["mcp"], group: "Hosted service", secret: true,
    doc: "the service's API key; unset, empty or a placeholder (YOUR_PINECONE_API_KEY) → the local service",
    check: (label) =>
      z
        .string()
        // It travels as a header value, which cannot hold them: every call would fail with a misleading error.
        .regex(/^[^\u0000-\u001f\u007f]*$/, { error: () => `${label} must not contain line breaks or other control characters` }),
    bundle: { id: "api_key", type: "string", title: "Pinecone API key", description: "Your Pinecone API key. Leave empty to use the embedded local service on this computer." },
  },
  {
    key: "controllerUrl", env: "PINECONE_CONTROLLER_HOST", type: "text", commands: ["mcp"], group: "Hosted service",
    defaults: { mcp: "https://api.pinecone.io" },
    doc: "control-plane URL of the service, for a Pinecone-compatible service other than Pinecone's own",
    check: (label) => controllerUrlCheck(label),
    bundle: { id: "controller_url", type: "string", title: "Control-plane URL", description: "The service's control-plane URL, for a Pinecone-compatible service other than Pinecone's own." },
  },
  {
    key: "apiVersion", env: "PINECONE_API_VERSION", type: "text", commands: ["mcp"], group: "Hosted service", defaults: { mcp: "2026-04" },
    doc: "API version sent as X-Pinecone-API-Version: YYYY-MM or unstable; 2026-07 adds backup schedules, namespace aliases and indexes described by schema",
    check: (label) => z.string().regex(/^(\d{4}-\d{2}|unstable)$/, { error: () => `${label} must look like 2026-04 (YYYY-MM) or be "unstable"` }),
  },

  {
    key: "otherApiKey", env: "VECDB_OTHER_API_KEY", type: "text", commands: ["mcp"], group: "Hosted service", secret: true,
    doc: "API key of a second service, which copy_index names \"other\": another project, or the Pinecone-compatible service at --other-host (never a flag: a command line shows in ps)",
    check: (label) =>
      z.string().regex(/^[^\u0000-\u001f\u007f]*$/, { error: () => `${label} must not contain line breaks or other control characters` }),
  },
  {
    key: "otherControllerUrl", flag: "other-host", env: "VECDB_OTHER_HOST", value: "URL", type: "text", commands: ["mcp"], group: "Hosted service",
    defaults: { mcp: "https://api.pinecone.io" },
    doc: "control-plane URL of the second service (\"other\"); used only with VECDB_OTHER_API_KEY",
    check: (label) => controllerUrlCheck(label),
  },

  // ── Local service ───────────────────────────────────────────────────────────────────────────────────
  {
    key: "local", flag: "local", type: "switch", commands: ["mcp"], group: "Local service", defaults: { mcp: false },
    doc: "use the local service even when PINECONE_API_KEY is set; with --data-dir it runs inside this process, as its only user",
  },
  {
    key: "dataDir", flag: "data-dir", env: "VECDB_DATA_DIR", value: "DIR", type: "text", commands: ["mcp", "serve"], group: "Local service",
    defaultText: { mcp: "the user data directory, e.g. ~/.local/share/vecdb-mcp; with --http its own, e.g. ~/.local/share/vecdb-mcp-http", serve: "none: required" },
    doc: "data directory of the local service; every server without a key shares one service per data dir. An --http server defaults to a directory of its own, so a team never reaches the desktop servers' personal indexes or allowed folders",
    check: (label) => z.string().min(1, { error: () => `${label} must not be empty` }),
    bundle: { id: "data_dir", type: "directory", title: "Local data directory", description: "Where the embedded local service keeps its data (used only without an API key). Empty: your user data directory." },
  },
  {
    key: "localIdleS", flag: "local-idle-s", env: "VECDB_LOCAL_IDLE_S", value: "N", type: "integer", min: 1, max: 86_400,
    defaults: { mcp: 600 }, defaultText: { serve: "never" }, commands: ["mcp", "serve"], group: "Local service",
    doc: "a local service started in the background stops after N s with no MCP server attached and no request",
  },
  {
    key: "embedUrl", flag: "embed-url", env: "VECDB_EMBED_URL", value: "URL", type: "text", commands: ["mcp", "serve"], group: "Local service",
    doc: "the local service offers the dense models of this OpenAI-compatible embeddings server, e.g. Ollama's http://127.0.0.1:11434/v1",
    check: url,
    bundle: {
      id: "embed_url", type: "string", title: "Embeddings server (no key)",
      description: "Without an API key: an OpenAI-compatible embeddings server whose models the local service offers, e.g. Ollama's http://127.0.0.1:11434/v1. Leave empty for the built-in keyword model only.",
    },
  },
  {
    key: "embedKey", env: "VECDB_EMBED_KEY", type: "text", commands: ["mcp", "serve"], group: "Local service", secret: true,
    doc: "bearer token sent to that embeddings server, if it needs one",
  },
  {
    key: "embedTimeoutMs", env: "VECDB_EMBED_TIMEOUT_MS", type: "integer", min: 100, max: 600_000, defaults: { mcp: 30_000, serve: 30_000 },
    commands: ["mcp", "serve"], group: "Local service",
    doc: "per-call timeout of that embeddings server, in milliseconds",
  },

  // ── Access ─────────────────────────────────────────────────────────────────────────────────────────
  {
    key: "allowDirs", flag: "allow-dir", env: "VECDB_ALLOW_DIRS", value: "DIR", type: "dirs", commands: ["mcp", "serve"], group: "Access",
    defaultText: "none: only the client's roots",
    doc: "a folder import_vectors, index_documents and the local service's bulk imports may read; flag repeatable, variable joined with \":\" (\";\" on Windows)",
    bundle: {
      id: "allowed_directories", type: "directory", title: "Folder for documents and imports (index_documents, import_vectors)",
      description: "index_documents may index the documents, and import_vectors read the JSONL and Parquet files, in this folder and its subfolders. Empty: no folder (only the ones the client shares as roots).",
    },
  },
  {
    key: "readOnly", flag: "read-only", env: "VECDB_READ_ONLY", type: "switch", defaults: { mcp: false }, commands: ["mcp"], group: "Access",
    doc: "offer and allow only the tools that read; nothing is written or deleted",
    bundle: { id: "read_only", type: "boolean", title: "Read-only", description: "Offer only the tools that read: no index or collection is created and no record is written." },
  },
  {
    key: "allowDestructive", flag: "allow-destructive", env: "VECDB_ALLOW_DESTRUCTIVE", type: "switch", defaults: { mcp: false }, commands: ["mcp"], group: "Access",
    doc: `add the delete tools (${DELETE_TOOLS.join(", ")}); ignored in read-only mode`,
  },
  {
    key: "indexes", flag: "indexes", env: "VECDB_INDEXES", value: "A,B", type: "list", commands: ["mcp"], group: "Access", defaultText: "all",
    doc: "limit every tool to these indexes; others are invisible",
    check: (label) =>
      nameList.check(
        z.refine((names) => names.length > 0, { error: () => `${label} must name at least one index, e.g. --indexes docs,faq` }),
        z.refine((names) => names.every((n) => brokenNameRule(n) === undefined), {
          error: (issue) => {
            const bad = (issue.input as string[]).find((n) => brokenNameRule(n) !== undefined) ?? "";
            const broken = brokenNameRule(bad);
            return `${label}: ${JSON.stringify(bad)} is not an index name (it ${broken?.what}; rule: ${broken?.rule})`;
          },
        }),
      ),
  },

  // ── Tools ──────────────────────────────────────────────────────────────────────────────────────────
  {
    key: "toolsets", flag: "toolsets", env: "VECDB_TOOLSETS", value: "A,B", type: "list", commands: ["mcp"], group: "Tools", defaultText: "the lean default set",
    doc: "the toolsets to offer, or \"all\"", check: () => nameList,
    bundle: { id: "toolsets", type: "string", title: "Toolsets", description: "The toolsets to offer, comma-separated (text, vectors, indexes, collections, namespaces, inference, backups, imports, transfer), or all. Empty: the lean default set." },
  },
  {
    key: "tools", flag: "tools", env: "VECDB_TOOLS", value: "A,B", type: "list", defaults: { mcp: "" }, defaultText: "none", commands: ["mcp"], group: "Tools",
    doc: "tools to add to the toolsets", check: () => nameList,
    bundle: { id: "tools", type: "string", title: "Extra tools", description: "Single tools to add to the toolsets, comma-separated (e.g. query_vectors)." },
  },
  {
    key: "excludeTools", flag: "exclude-tools", env: "VECDB_EXCLUDE_TOOLS", value: "A,B", type: "list", defaults: { mcp: "" }, defaultText: "none", commands: ["mcp"], group: "Tools",
    doc: "tools to take away", check: () => nameList,
    bundle: { id: "exclude_tools", type: "string", title: "Tools left out", description: "Single tools to take away, comma-separated." },
  },
  {
    key: "maxResultTokens", flag: "max-result-tokens", env: "VECDB_MAX_RESULT_TOKENS", value: "N", type: "integer", min: 1_000, max: 1_000_000,
    defaults: { mcp: 10_000 }, commands: ["mcp"], group: "Tools",
    doc: "estimated tokens a tool result may take in each channel (the text, or structuredContent)",
  },

  // ── Requests ───────────────────────────────────────────────────────────────────────────────────────
  {
    key: "timeoutMs", flag: "timeout-ms", env: "VECDB_TIMEOUT_MS", value: "N", type: "integer", min: 100, max: 600_000, defaults: { mcp: 30_000 },
    commands: ["mcp"], group: "Requests", doc: "timeout of each request attempt to the service, in milliseconds",
  },
  {
    key: "concurrency", flag: "concurrency", env: "VECDB_CONCURRENCY", value: "N", type: "integer", min: 1, max: 64, defaults: { mcp: 8 },
    commands: ["mcp"], group: "Requests", doc: "upsert requests in flight at once",
  },
  {
    key: "retries", flag: "retries", env: "VECDB_RETRIES", value: "N", type: "integer", min: 0, max: 10, defaults: { mcp: 4 },
    commands: ["mcp"], group: "Requests", doc: "retries of 429, 5xx and dropped connections (backoff with jitter, Retry-After honoured)",
  },
  {
    key: "answerMbInFlight", flag: "max-answer-mb-in-flight", env: "VECDB_MAX_ANSWER_MB_IN_FLIGHT", value: "N", type: "integer", min: 16, max: 65_536,
    defaults: { mcp: 256 }, commands: ["mcp"], group: "Requests",
    doc: "MiB that large answers being received at once may take (query_vectors, fetch_vectors, fetch_by_metadata with values or many records; estimated from their size); past it a call waits its turn, up to 30 s, then is refused",
  },

  // ── Logging ────────────────────────────────────────────────────────────────────────────────────────
  {
    key: "logLevel", flag: "log-level", env: "VECDB_LOG_LEVEL", value: "LEVEL", type: "choice", choices: ["debug", "info", "warning", "error"],
    defaults: { mcp: "info" }, commands: ["mcp"], group: "Logging",
    doc: "lowest level logged on stderr (MCP clients choose their own level)",
  },

  // ── HTTP transport ─────────────────────────────────────────────────────────────────────────────────
  {
    key: "http", flag: "http", type: "switch", defaults: { mcp: false }, commands: ["mcp"], group: "HTTP transport",
    doc: "serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio",
  },
  {
    key: "httpPort", flag: "port", env: "VECDB_HTTP_PORT", value: "N", type: "integer", min: 0, max: 65_535, defaults: { mcp: 3333 },
    commands: ["mcp"], group: "HTTP transport", doc: "HTTP port; 0 picks a free one",
  },
  {
    key: "httpHost", flag: "host", env: "VECDB_HTTP_HOST", value: "H", type: "text", defaults: { mcp: "127.0.0.1" }, commands: ["mcp"], group: "HTTP transport",
    doc: "HTTP address to listen on; 0.0.0.0 or :: for every address (off loopback a token is always required: VECDB_HTTP_TOKEN, or one generated at start)",
    check: (label) => z.string().min(1, { error: () => `${label} must not be empty` }),
  },
  {
    key: "httpToken", env: "VECDB_HTTP_TOKEN", type: "text", commands: ["mcp"], group: "HTTP transport", secret: true,
    defaultText: "generated at start, shown once on stderr",
    doc: "the bearer token every HTTP request must carry, at least 16 characters",
    check: (label) => z.string().min(16, { error: () => `${label} must be at least 16 characters` }),
  },
  {
    key: "stateSecret", env: "VECDB_HTTP_STATE_SECRET", type: "text", commands: ["mcp"], group: "HTTP transport", secret: true,
    defaultText: "random, per process",
    doc: "signs what a 2026-07-28 client carries between the rounds of one call (a confirmation's state), at least 32 characters; give every process behind one load balancer the same",
    check: (label) => z.string().refine((k) => Buffer.byteLength(k, "utf8") >= 32, { error: () => `${label} must be at least 32 bytes (a signing key)` }),
  },
  {
    key: "httpNoToken", flag: "insecure-http-no-token", type: "switch", defaults: { mcp: false }, commands: ["mcp"], group: "HTTP transport",
    doc: "serve HTTP with no token: every local user and process can call the server (loopback only)",
  },
  {
    key: "httpAllowedHosts", flag: "allowed-hosts", env: "VECDB_HTTP_ALLOWED_HOSTS", value: "A,B", type: "list", defaults: { mcp: "" }, defaultText: "none",
    commands: ["mcp"], group: "HTTP transport", doc: "more Host/Origin names the server is reached by, name (any port) or name:port; others get 403 (DNS-rebinding protection)",
    check: (label) =>
      nameList.pipe(z.array(z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:/\[\]@]+)(:\d{1,5})?$/, {
        error: () => `${label} must be a comma-separated list of host names, each optionally with :port`,
      }))),
  },
  {
    key: "httpTrustedProxies", flag: "trusted-proxies", env: "VECDB_HTTP_TRUSTED_PROXIES", value: "A,B", type: "list", defaults: { mcp: "" }, defaultText: "none",
    commands: ["mcp"], group: "HTTP transport",
    doc: "addresses or CIDR ranges of the proxies in front of the server; only their X-Forwarded-For names the client the caps count (nobody else's is believed)",
    check: (label) =>
      nameList.pipe(z.array(z.string().refine(isAddressOrRange, {
        error: () => `${label} must be a comma-separated list of IP addresses or CIDR ranges, e.g. 10.0.0.5,192.168.1.0/24`,
      }))),
  },
  {
    key: "httpIdleTimeoutS", flag: "idle-timeout-s", env: "VECDB_HTTP_IDLE_TIMEOUT_S", value: "N", type: "integer", min: 1, max: 86_400, defaults: { mcp: 1800 },
    commands: ["mcp"], group: "HTTP transport", doc: "close an HTTP session with no request for this long",
  },
  {
    key: "httpMaxSessions", flag: "max-sessions", env: "VECDB_HTTP_MAX_SESSIONS", value: "N", type: "integer", min: 1, max: 100_000, defaults: { mcp: 256 },
    commands: ["mcp"], group: "HTTP transport", doc: "HTTP sessions open at once; the next initialize gets 503 and Retry-After",
  },
  {
    key: "httpMaxSessionsPerAddress", flag: "max-sessions-per-address", env: "VECDB_HTTP_MAX_SESSIONS_PER_ADDRESS", value: "N", type: "integer",
    min: 1, max: 100_000, defaults: { mcp: 128 }, commands: ["mcp"], group: "HTTP transport",
    doc: "sessions one client may hold (a client: an IPv4 address, an IPv6 /64, all of loopback, or behind --trusted-proxies the address they forward); past it 429 and Retry-After",
  },
  {
    key: "httpMaxConnectionsPerAddress", flag: "max-connections-per-address", env: "VECDB_HTTP_MAX_CONNECTIONS_PER_ADDRESS", value: "N", type: "integer",
    min: 1, max: 100_000, defaults: { mcp: 128 }, commands: ["mcp"], group: "HTTP transport",
    doc: "open TCP connections one client may hold outside sessions, and one session may hold; past it 503 and Retry-After",
  },
  {
    key: "httpBodyMbInFlight", flag: "max-body-mb-in-flight", env: "VECDB_HTTP_MAX_BODY_MB_IN_FLIGHT", value: "N", type: "integer", min: 1, max: 65_536,
    defaults: { mcp: 256 }, commands: ["mcp"], group: "HTTP transport", doc: "MiB of request bodies in progress at once (received, or their call still running), all clients; past it 503 and Retry-After",
  },
  {
    key: "httpRequestTimeoutS", flag: "request-timeout-s", env: "VECDB_HTTP_REQUEST_TIMEOUT_S", value: "N", type: "integer", min: 1, max: 600,
    defaults: { mcp: 10 }, commands: ["mcp"], group: "HTTP transport", doc: "headers, and every request body (plus a second per MiB), must arrive within this (else 408)",
  },
  {
    key: "httpShutdownGraceS", flag: "shutdown-grace-s", env: "VECDB_HTTP_SHUTDOWN_GRACE_S", value: "N", type: "integer", min: 0, max: 600,
    defaults: { mcp: 10 }, commands: ["mcp"], group: "HTTP transport", doc: "at shutdown, running calls get this long before they are stopped",
  },
  {
    key: "httpSendTimeoutS", flag: "send-timeout-s", env: "VECDB_HTTP_SEND_TIMEOUT_S", value: "N", type: "integer", min: 1, max: 3600,
    defaults: { mcp: 60 }, commands: ["mcp"], group: "HTTP transport", doc: "drop a response the client stops reading for this long",
  },

  // ── The local service alone (`vecdb-mcp serve`) ────────────────────────────────────────────────────
  {
    key: "port", flag: "port", value: "N", type: "integer", min: 0, max: 65_535, defaults: { serve: 0 }, commands: ["serve"], group: "Service alone",
    doc: "port of the local service; 0 picks a free one",
  },
  {
    key: "host", flag: "host", value: "H", type: "text", defaults: { serve: "127.0.0.1" }, commands: ["serve"], group: "Service alone",
    doc: "address of the local service; a non-loopback one sends the key and every record unencrypted",
    check: (label) => z.string().min(1, { error: () => `${label} must not be empty` }),
  },
  {
    key: "apiKey", flag: "api-key", env: "VECDB_LOCAL_API_KEY", value: "KEY", type: "text", commands: ["serve"], group: "Service alone", secret: true,
    defaultText: "generated once per data dir, kept in DIR/api-key",
    doc: "the key clients must send, at least 16 characters (the flag shows in ps: prefer the variable or --api-key-file)",
    check: localKeyCheck,
  },
  {
    key: "apiKeyFile", flag: "api-key-file", value: "FILE", type: "text", commands: ["serve"], group: "Service alone",
    doc: "read the key from this file",
  },
  {
    key: "memoryLimitMb", flag: "memory-limit-mb", value: "N", type: "integer", min: 1, max: 16_777_216, commands: ["serve"], group: "Service alone",
    defaultText: "no limit", doc: "megabytes of records the service keeps in memory",
  },
  {
    key: "approximateAbove", flag: "approximate-above", value: "N", type: "integer", min: 0, max: 9_999_999_999, commands: ["serve"], group: "Service alone",
    defaultText: "never", doc: "namespaces with at least N records get an approximate index (0: never)",
  },
] as const satisfies readonly Setting[];

/** The field names of one command's settings (src/config.ts checks its Config type against them). */
export type SettingKey<C extends Command> = (typeof SETTINGS)[number] extends infer S
  ? S extends { key: infer K; commands: readonly (infer Of)[] }
    ? C extends Of
      ? K
      : never
    : never
  : never;

/** The settings of one command, in declaration order. */
export function settingsOf(command: Command): Setting[] {
  return (SETTINGS as readonly Setting[]).filter((s) => s.commands.includes(command));
}

/** How messages name a setting: "--timeout-ms / VECDB_TIMEOUT_MS", "--local", "PINECONE_API_KEY". */
export function settingLabel(s: Setting): string {
  return [s.flag && `--${s.flag}`, s.env].filter(Boolean).join(" / ");
}

/** The allowed values in words: "100–600000", "1 or 0", "debug, info, warning, error". */
export function allowedText(s: Setting): string {
  if (s.type === "integer") return `${s.min}–${s.max}`;
  if (s.type === "switch") return s.env ? "1 or 0 (true or false)" : "on when given";
  if (s.type === "choice") return (s.choices ?? []).join(", ");
  if (s.type === "list") return "comma-separated";
  if (s.type === "dirs") return "folders";
  if (s.key === "embedUrl" || s.key === "controllerUrl" || s.key === "otherControllerUrl") return "http(s) URL";
  return "text";
}

/** The default in words, for one command ("" when there is none). */
export function defaultText(s: Setting, command: Command = s.commands[0]): string {
  const given = typeof s.defaultText === "string" ? s.defaultText : s.defaultText?.[command];
  if (given) return given;
  const d = s.defaults?.[command];
  if (d === undefined) return "";
  return s.type === "switch" ? (d ? "on" : "off") : String(d);
}

/** The zod check of one setting's raw value (a string from a variable or flag; true for a given switch). */
export function settingSchema(s: Setting, command: Command): z.ZodType {
  const label = settingLabel(s);
  const base = s.check?.(label) ?? typeCheck(s, label);
  const fallback = s.defaults?.[command];
  // The default is checked and transformed as a given value is (written as a user would write it).
  return fallback === undefined ? base.optional() : base.prefault((typeof fallback === "boolean" ? fallback : String(fallback)) as never);
}

function typeCheck(s: Setting, label: string): z.ZodType {
  switch (s.type) {
    case "integer": {
      // Digits only: "1e6" or "0x10" would pass as numbers, and are surely not what was meant.
      const message = () => `${label} must be an integer from ${s.min} to ${s.max}`;
      return z
        .string({ error: message })
        .trim()
        .regex(/^\d{1,16}$/, { error: message })
        .transform(Number)
        .pipe(z.number().min(s.min ?? 0, { error: message }).max(s.max ?? Number.MAX_SAFE_INTEGER, { error: message }));
    }
    case "switch":
      /** On: 1, true, yes, on; off: 0, false, no, off (any case); a bare command-line flag is on. */
      return z.union([z.boolean(), z.string()]).transform((v, ctx) => {
        if (typeof v === "boolean") return v;
        const t = v.trim().toLowerCase();
        if (["1", "true", "yes", "on"].includes(t)) return true;
        if (["0", "false", "no", "off"].includes(t)) return false;
        ctx.issues.push({ code: "custom", input: v, message: `${label} must be 1 or 0 (true or false)` });
        return z.NEVER;
      });
    case "choice":
      return z.enum(s.choices as [string, ...string[]], { error: () => `${label} must be one of ${(s.choices ?? []).join(", ")}` });
    case "list":
      return nameList;
    case "dirs":
      // Relative folders are from the working directory.
      return z.array(z.string()).transform((dirs) => dirs.filter((d) => d !== "").map((d) => resolve(d)));
    case "text":
      return z.string();
  }
}

/** The raw value of a "dirs" setting given by its variable: several joined with the path delimiter. */
export function splitDirs(value: string): string[] {
  return value.split(delimiter);
}
