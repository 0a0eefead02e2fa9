// All configuration, read once from argv + env and frozen: `vecdb-mcp` (loadConfig) and `vecdb-mcp serve`
// (loadServeConfig). What each setting is — flag, variable, range, default — is declared in src/settings.ts; this file
// parses and checks. The only reader of process.env.
import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { placeholderKeyProblem } from "./placeholder-key.js";
import { COMMAND_NAME, settingLabel, settingSchema, settingsOf, splitDirs, type Command, type Setting, type SettingKey } from "./settings.js";
import type { ServeOptions } from "./local/serve-command.js";
import { isLoopbackHost } from "./common/loopback.js";

/** A bad setting: `message` is the one line printed on stderr before exiting with code 2. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** The MCP server's configuration (the fields are the settings of src/settings.ts, checked). */
export interface Config {
  /** "remote": the service at controllerUrl with apiKey; "local": the local service. */
  mode: "remote" | "local";
  /** Sent as Api-Key to the hosted service. Never a placeholder (see apiKeyIgnored). */
  apiKey?: string;
  /** PINECONE_API_KEY was given but is not in use: a placeholder such as YOUR_PINECONE_API_KEY. */
  apiKeyIgnored?: "placeholder";
  controllerUrl: string;
  /** The second service copy_index names "other" (VECDB_OTHER_API_KEY); never logged. Unset: there is none. */
  otherApiKey?: string;
  otherControllerUrl: string;
  apiVersion: string;
  timeoutMs: number;
  concurrency: number;
  retries: number;
  logLevel: "debug" | "info" | "warning" | "error";
  dataDir: string;
  embedUrl?: string;
  /** Never logged. */
  embedKey?: string;
  embedTimeoutMs: number;
  /**
   * "shared": one service per data dir, found or started detached, used by every MCP server on it;
   * "embedded": in this process, owning the data dir for its lifetime (--local with --data-dir on the command line).
   */
  localService: "shared" | "embedded";
  localIdleS: number;
  readOnly: boolean;
  allowDestructive: boolean;
  indexes?: string[];
  toolsets?: string[];
  tools: string[];
  excludeTools: string[];
  maxResultTokens: number;
  answerMbInFlight: number;
  http: boolean;
  httpPort: number;
  httpHost: string;
  /** Never logged. */
  httpToken?: string;
  /** Never logged: signs the new era's multi-round-trip state (src/mcp/request-state.ts). */
  stateSecret?: string;
  httpAllowedHosts: string[];
  httpTrustedProxies: string[];
  httpIdleTimeoutS: number;
  httpNoToken: boolean;
  httpMaxSessions: number;
  httpMaxSessionsPerAddress: number;
  httpMaxConnectionsPerAddress: number;
  httpBodyMbInFlight: number;
  httpRequestTimeoutS: number;
  httpShutdownGraceS: number;
  httpSendTimeoutS: number;
  /** Absolute. */
  allowDirs: string[];
}

// The compiler holds Config to the declarations: a declared setting with no field here, or a field no setting
// declares, fails to compile (the fields the loader adds itself aside).
type Derived = "mode" | "apiKeyIgnored" | "localService";
type Undeclared = Exclude<keyof Config, SettingKey<"mcp"> | Derived>;
type Unread = Exclude<SettingKey<"mcp">, keyof Config | "local">;
const configMatchesDeclarations: [Undeclared, Unread] extends [never, never] ? true : [Undeclared, Unread] = true;
void configMatchesDeclarations;

/** `vecdb-mcp serve`'s configuration: what the local service is started with, and where its key may come from. */
export type ServeConfig = ServeOptions & {
  /** Read by the command (src/serve-main.ts) instead of apiKey. */
  apiKeyFile?: string;
};

type ServeUndeclared = Exclude<keyof ServeConfig, SettingKey<"serve">>;
type ServeUnread = Exclude<SettingKey<"serve">, keyof ServeConfig>;
const serveConfigMatchesDeclarations: [ServeUndeclared, ServeUnread] extends [never, never] ? true : [ServeUndeclared, ServeUnread] = true;
void serveConfigMatchesDeclarations;

type Env = Record<string, string | undefined>;
type Values = Record<string, string | boolean | string[] | undefined>;
/** `help: true`: the command only prints — its usage, or with `version` its version. */
export type Loaded<T> = { help: true; version?: true } | { help: false; config: Readonly<T> };

/** `{ help: true }` for --help or --version; otherwise the checked, frozen configuration. Throws ConfigError. */
export function loadConfig(argv: string[], env: Env = process.env): Loaded<Config> {
  const values = readArgs("mcp", argv);
  if (values.version) return { help: true, version: true };
  if (values.help) return { help: true };
  const raw = rawSettings("mcp", values, env);
  // A desktop bundle passes "" for an optional key left blank: that means unset. Surrounding white space (a line
  // break pasted along with the key) is never part of a key: a header drops it.
  const givenKey = env.PINECONE_API_KEY?.trim() || undefined;
  const apiKeyIgnored = givenKey !== undefined && placeholderKeyProblem(givenKey) ? "placeholder" : undefined;
  const apiKey = values.local || apiKeyIgnored ? undefined : givenKey;
  raw.apiKey = apiKey;
  if (typeof raw.otherApiKey === "string") raw.otherApiKey = raw.otherApiKey.trim() || undefined;
  // An HTTP server serves a team: it never shares the personal database of the desktop servers unless told to.
  raw.dataDir ??= raw.http === true ? defaultHttpDataDir(env) : defaultDataDir(env);
  const { local, ...checked } = check("mcp", raw) as Omit<Config, "mode" | "localService" | "apiKeyIgnored"> & { local: boolean };
  const config: Config = {
    mode: local || !apiKey ? "local" : "remote",
    ...checked,
    ...(apiKeyIgnored && !local ? { apiKeyIgnored } : {}),
    localService: local && values["data-dir"] !== undefined ? "embedded" : "shared",
  };
  for (const s of settingsOf("mcp")) {
    if (s.group === "HTTP transport" && s.flag && s.flag !== "http" && values[s.flag] !== undefined && !config.http) {
      throw new ConfigError(`--${s.flag} needs --http (the HTTP transport)`);
    }
  }
  if ((values["other-host"] !== undefined || (env.VECDB_OTHER_HOST ?? "") !== "") && config.otherApiKey === undefined) {
    throw new ConfigError("--other-host / VECDB_OTHER_HOST names a second service, which needs its key in VECDB_OTHER_API_KEY; set it, or leave --other-host out");
  }
  if (config.httpNoToken && config.httpToken) {
    throw new ConfigError("--insecure-http-no-token and VECDB_HTTP_TOKEN contradict each other: give one of them");
  }
  // Names for the server other than its own, or a proxy in front: whoever reaches that name or proxy reaches the
  // server, so with no token it would be open to all of them.
  for (const [given, flag] of [[config.httpAllowedHosts, "--allowed-hosts"], [config.httpTrustedProxies, "--trusted-proxies"]] as const) {
    if (config.httpNoToken && given.length > 0) {
      throw new ConfigError(
        `--insecure-http-no-token is refused together with ${flag}: a server reached through another name or a proxy is open to everyone who reaches that; leave --insecure-http-no-token out and a token is generated (or set VECDB_HTTP_TOKEN)`,
      );
    }
  }
  if (config.httpNoToken && !isLoopbackHost(config.httpHost)) {
    throw new ConfigError(
      `--insecure-http-no-token is refused on ${config.httpHost}, which is not a loopback address: leave it out and a token is generated (or set VECDB_HTTP_TOKEN)`,
    );
  }
  return { help: false, config: freezeConfig(config) };
}

/** `vecdb-mcp serve`'s settings, from the same declarations. Throws ConfigError. */
export function loadServeConfig(argv: string[], env: Env = process.env): Loaded<ServeConfig> {
  const values = readArgs("serve", argv);
  if (values.version) return { help: true, version: true };
  if (values.help) return { help: true };
  const raw = rawSettings("serve", values, env);
  if (raw.dataDir === undefined) throw new ConfigError("--data-dir / VECDB_DATA_DIR is required");
  if (typeof raw.apiKey === "string") raw.apiKey = raw.apiKey.trim() || undefined;
  if (raw.apiKeyFile !== undefined && values["api-key"] !== undefined) throw new ConfigError("give --api-key or --api-key-file, not both");
  return { help: false, config: freezeConfig(check("serve", raw) as unknown as ServeConfig) };
}

/** The configuration, frozen with its lists: a change after loading throws (in strict mode, i.e. every module). */
export function freezeConfig<T extends object>(config: T): Readonly<T> {
  for (const value of Object.values(config)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze(config);
}

/** The parseArgs options of a command, from its settings. */
function argOptions(command: Command) {
  const options: Record<string, { type: "string" | "boolean"; multiple?: boolean }> = { help: { type: "boolean" }, version: { type: "boolean" } };
  for (const s of settingsOf(command)) {
    if (!s.flag) continue;
    const option = { type: s.type === "switch" ? ("boolean" as const) : ("string" as const), ...(s.type === "dirs" && { multiple: true }) };
    options[s.flag] = option;
  }
  return options;
}

function readArgs(command: Command, argv: string[]): Values {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options: argOptions(command) }).values as Values;
  } catch (err) {
    const detail = (err instanceof Error ? err.message : String(err)).split(/\.\s|\n/)[0].replace(/\.$/, "");
    // Not a list of the options here: --help has them all, with their environment variables.
    throw new ConfigError(`${detail}; ${COMMAND_NAME[command]} --help lists the options`);
  }
}

/** Each setting's raw value: its flag wins over its variable; a variable left empty is unset. */
function rawSettings(command: Command, values: Values, env: Env): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const s of settingsOf(command)) {
    const given = s.flag ? values[s.flag] : undefined;
    const fromEnv = s.env && env[s.env] !== "" ? env[s.env] : undefined;
    if (s.type === "dirs") raw[s.key] = (given as string[] | undefined) ?? (fromEnv === undefined ? [] : splitDirs(fromEnv));
    else raw[s.key] = given ?? fromEnv;
  }
  return raw;
}

const schemas = new Map<Command, z.ZodObject>();

function schemaOf(command: Command): z.ZodObject {
  let schema = schemas.get(command);
  if (!schema) {
    schema = z.object(Object.fromEntries(settingsOf(command).map((s) => [s.key, settingSchema(s, command)])));
    schemas.set(command, schema);
  }
  return schema;
}

function check(command: Command, raw: Record<string, unknown>): Record<string, unknown> {
  // Parsed once per process: zod's fast path, generated and compiled on a schema's first parse, would cost more than
  // it saves (~1 ms of every cold start).
  const parsed = schemaOf(command).safeParse(raw, { jitless: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const key = issue.path[0] as string;
  const setting = settingsOf(command).find((s) => s.key === key) as Setting;
  const given = raw[key];
  // Never echo a key back, nor credentials in a URL.
  const secret = setting.secret || (typeof given === "string" && given.includes("@")) || (key === "embedUrl" && /[?#]/.test(String(given)));
  const got = secret || typeof given !== "string" ? "" : ` (got ${JSON.stringify(given)})`;
  const message = issue.code === "custom" || issue.message.includes(settingLabel(setting)) ? issue.message : `${settingLabel(setting)}: ${issue.message}`;
  throw new ConfigError(`${message}${got}`);
}

/**
 * The default data directory of an HTTP server (--http) without --data-dir: its own, beside the personal one
 * ("vecdb-mcp-http" next to "vecdb-mcp"), so a token holder never reaches the indexes or the allowed folders of the
 * user's desktop servers.
 */
function defaultHttpDataDir(env: Env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  return `${defaultDataDir(env, platform, home)}-http`;
}

/** Whether this HTTP server runs on its own default data dir (its startup line says so). */
export function onHttpOwnDataDir(config: Pick<Config, "http" | "dataDir">, env: Env = process.env): boolean {
  return config.http && config.dataDir === defaultHttpDataDir(env);
}

/** The default data directory of the local service, per platform. */
export function defaultDataDir(env: Env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (platform === "win32") return join(env.LOCALAPPDATA || join(home, "AppData", "Local"), "vecdb-mcp");
  if (platform === "darwin") return join(home, "Library", "Application Support", "vecdb-mcp");
  return join(env.XDG_DATA_HOME || join(home, ".local", "share"), "vecdb-mcp");
}

/** This process's environment with `extra` added: for a child process (this file is the only reader of process.env). */
export function childEnvironment(extra: Readonly<Record<string, string>>): Record<string, string | undefined> {
  return { ...process.env, ...extra };
}
