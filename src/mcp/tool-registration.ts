// Each offered tool registered with the SDK (without zod schemas: they come with the tool's module on its first
// call, tool-calls.ts), and what one call does: refuse an index outside --indexes, load the module, run the tool
// against the service (recovering the shared service once), and turn its result into content + structuredContent,
// its error into isError text — with every secret redacted.
import type { CallToolResult, InputRequiredResult, McpServer } from "@modelcontextprotocol/server";
import type { Service } from "../api/service.js";
import type { Config } from "../config.js";
import type { ServiceDirectory } from "../tool-kit/named-services.js";
import { linkAbort } from "../common/linked-abort.js";
import { redact, type Logger } from "../log.js";
import { resultChannels, type ToolContext } from "../tool-kit/tool.js";
import { callRefusal, scopedService } from "./access.js";
import { confirmer, roundsConfirmer } from "./elicit.js";
import { callRounds, InputNeeded, newEraCall, type stateCodec } from "./request-state.js";
import { roundsRoots } from "./roots.js";
import { callLogs } from "./log-bridge.js";
import { errorText } from "./errors.js";
import { progressOf, type Extra } from "./progress.js";
import { runWithRecovery, type ServiceSupply } from "./service-supply.js";
import type { LazyTool } from "./tool-catalog.js";
import { lazySchemas } from "./lazy-schemas.js";

export interface RegistrationContext {
  config: Config;
  supply: ServiceSupply;
  log: Logger;
  secrets: () => readonly (string | undefined)[];
  /** The directories a call may read (--allow-dir and the client's roots). */
  roots: (call: Extra["mcpReq"]) => Promise<string[]>;
  /** Signs and checks a 2026-07-28 call's state between its rounds (request-state.ts). */
  codec: ReturnType<typeof stateCodec>;
  /** Whether the client's roots count (stdio), or only --allow-dir (HTTP). */
  clientRootsCount: boolean;
  /** The names of the tools on in this session (ToolContext.tools). */
  active: ReadonlySet<string>;
  stop?: AbortSignal;
  stopping?: AbortSignal;
  /** ToolContext.services. */
  services?: ServiceDirectory;
}

/** The structured result with every secret replaced, should the service have echoed one into a message. */
function redactDeep(value: Record<string, unknown>, secrets: readonly (string | undefined)[]): Record<string, unknown> {
  const json = JSON.stringify(value);
  const clean = redact(json, secrets);
  return clean === json ? value : (JSON.parse(clean) as Record<string, unknown>);
}

export function registerTools(server: McpServer, offered: readonly LazyTool[], at: RegistrationContext): void {
  const { config, supply, secrets, roots, active } = at;
  for (const tool of offered) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, annotations: { title: tool.title, ...tool.annotations }, ...lazySchemas(tool) },
      (async (args: Record<string, unknown>, extra: Extra): Promise<CallToolResult | InputRequiredResult> => {
        const started = Date.now();
        const progress = progressOf(extra);
        // A 2026-07-28 call (its _meta names the version): questions go back as input_required (request-state.ts).
        const rounds = newEraCall(extra) ? callRounds(extra, tool.name, args, at.codec) : undefined;
        const log = rounds ? callLogs(at.log, extra, secrets) : at.log;
        const allowedRoots = rounds ? () => roundsRoots(extra, rounds, config.allowDirs, at.clientRootsCount) : () => roots(extra.mcpReq);
        const linked = linkAbort([extra.mcpReq.signal, at.stop]); // released below: see linked-abort.ts
        const signal = linked.signal;
        const progressRequested = extra.mcpReq._meta?.progressToken !== undefined;
        const context = (service: Service): ToolContext => ({
          service: scopedService(service, config.indexes), // under --indexes, the others are invisible
          services: at.services,
          config,
          tools: active,
          signal,
          stopping: at.stopping,
          progress,
          progressRequested,
          log,
          allowedRoots,
          askToConfirm: rounds ? roundsConfirmer(extra, rounds) : confirmer(server.server, extra.mcpReq, signal),
        });
        const refused = callRefusal(tool, args, config);
        if (refused !== undefined) {
          log.info(`${tool.name} → refused: ${refused.split("\n")[0]}`);
          linked.release();
          return { content: [{ type: "text", text: refused }], isError: true };
        }
        try {
          const definition = await tool.load();
          const result = await runWithRecovery(tool.name, supply, (service) => definition.run(args, context(service)), signal, log);
          await progress.settle();
          log.debug(`${tool.name} done in ${Date.now() - started} ms${result.isError ? " (isError)" : ""}`);
          const { text, structured } = resultChannels(result);
          return {
            content: [{ type: "text", text: redact(text, secrets()) }],
            structuredContent: redactDeep(structured, secrets()),
            ...(result.isError && { isError: true }),
          };
        } catch (err) {
          if (err instanceof InputNeeded && rounds) {
            log.info(`${tool.name} → input required (${err.key})`);
            return await rounds.asking(err);
          }
          // A cancelled call throws the client's reason (often a plain string), which is no internal error.
          if (signal.aborted) {
            log.info(`${tool.name} → cancelled by the client`);
            return { content: [{ type: "text", text: `${tool.name} was cancelled before it finished.` }], isError: true };
          }
          const text = redact(errorText(tool, err), secrets());
          log.info(`${tool.name} → isError: ${text.split("\n")[0]}`);
          return { content: [{ type: "text", text }], isError: true };
        } finally {
          linked.release();
        }
      }) as never, // the lazy schemas (lazy-schemas.ts) type their arguments as unknown
    );
  }
}
