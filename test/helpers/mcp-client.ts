// Spawns the BUILT server (`node dist/vecdb-mcp.js`, the shipped bundle) over stdio with the SDK's Client, and checks every
// structuredContent it returns against the outputSchema the server listed (ajv).
import { existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  ElicitRequestSchema,
  type ElicitRequest,
  type ElicitResult,
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type LoggingMessageNotification,
  type Progress,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { BUNDLE, ensureBundle, ROOT } from "./bundle.js";

export { ROOT, BUNDLE as CLI };
ensureBundle(); // rebuilt here when a source is newer than it

export interface ToolCall {
  result: CallToolResult;
  /** The text of the first content block. */
  text: string;
  isError: boolean;
  structured: Record<string, unknown> | undefined;
  progress: Progress[];
}

export interface McpSession {
  client: Client;
  tools: Tool[];
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Every text and structuredContent received, for checks that something never appears. */
  transcript(): string;
  logMessages: LoggingMessageNotification["params"][];
  call(name: string, args?: Record<string, unknown>, opts?: { progress?: boolean; timeoutMs?: number }): Promise<ToolCall>;
  close(): Promise<void>;
}

/** The environment the server gets: only what is given here, plus PATH and HOME. */
export function serverEnv(extra: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/**
 * The server's arguments with every toolset on, so that behaviour tests reach every tool; unless the test chooses the
 * selection itself (--toolsets or VECDB_TOOLSETS given, or `asGiven`: the selection tests check the lean default).
 */
export function allToolsets(args: readonly string[], env: Record<string, string | undefined>, asGiven = false): string[] {
  return asGiven || args.includes("--toolsets") || env.VECDB_TOOLSETS !== undefined ? [...args] : ["--toolsets", "all", ...args];
}

export async function startMcp(opts: {
  env: Record<string, string | undefined>;
  args?: string[];
  /** Pass the arguments as they are (no --toolsets all): for tests of the tool selection itself. */
  asGiven?: boolean;
  /** Declares the elicitation capability and answers every elicitation/create with this. */
  elicit?: (request: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>;
}): Promise<McpSession> {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: build first with \`npm run build\``);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUNDLE, ...allToolsets(opts.args ?? [], opts.env, opts.asGiven)],
    env: serverEnv(opts.env),
    stderr: "pipe",
    cwd: ROOT,
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "vecdb-mcp-e2e", version: "1.0.0" }, { capabilities: opts.elicit ? { elicitation: {} } : {} });
  if (opts.elicit) client.setRequestHandler(ElicitRequestSchema, async (request) => opts.elicit!(request.params));
  const logMessages: LoggingMessageNotification["params"][] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logMessages.push(n.params));
  await client.connect(transport);
  const progressByToken = recordProgress(transport);

  const { tools } = await client.listTools();
  // JSON Schema 2020-12: the dialect the MCP spec (2025-11-25) names as default for schemas without $schema.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validators = new Map(tools.filter((t) => t.outputSchema).map((t) => [t.name, ajv.compile(t.outputSchema!)]));
  const seen: string[] = [];
  let progressTokens = 0;

  return {
    client,
    tools,
    logMessages,
    stderr: () => stderr,
    transcript: () => seen.join("\n"),
    async call(name, args = {}, callOpts = {}) {
      const progress: Progress[] = [];
      const progressToken = `progress-${++progressTokens}`;
      if (callOpts.progress) progressByToken.set(progressToken, progress);
      const result = (await client
        .callTool(
          { name, arguments: args, ...(callOpts.progress && { _meta: { progressToken } }) },
          undefined,
          { timeout: callOpts.timeoutMs ?? 120_000 },
        )
        .finally(() => progressByToken.delete(progressToken))) as CallToolResult;
      const text = result.content?.[0]?.type === "text" ? result.content[0].text : "";
      const structured = result.structuredContent as Record<string, unknown> | undefined;
      seen.push(JSON.stringify(result));
      if (structured !== undefined) {
        const validate = validators.get(name);
        if (!validate) throw new Error(`${name} returned structuredContent but lists no outputSchema`);
        if (!validate(structured)) {
          throw new Error(`${name}: structuredContent does not match its outputSchema: ${ajv.errorsText(validate.errors)}`);
        }
      } else if (!result.isError) {
        throw new Error(`${name}: a successful result without structuredContent`);
      }
      return { result, text, isError: result.isError === true, structured, progress };
    },
    async close() {
      await client.close().catch(() => {});
    },
  };
}

/**
 * Progress notifications as they come off the wire, by token. The SDK client drops one that is read together with
 * its response (it removes the request's handler before the notification's turn; typescript-sdk#2580), so a test
 * that read progress through `onprogress` would miss the last one on a loaded machine although the server sent it.
 */
function recordProgress(transport: StdioClientTransport): Map<string | number, Progress[]> {
  const byToken = new Map<string | number, Progress[]>();
  const deliver = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    if ("method" in message && message.method === "notifications/progress") {
      const { progressToken, ...p } = message.params as Progress & { progressToken: string | number };
      byToken.get(progressToken)?.push(p);
    }
    deliver(message, extra);
  };
  return byToken;
}
