// The shape of one MCP tool. A tool file exports one `defineTool({...})`; it knows nothing of MCP plumbing:
// src/mcp/server.ts validates arguments, turns the result into content + structuredContent, and errors into isError results.
import { z } from "zod";
import type { Service } from "../api/service.js";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import type { ServiceDirectory } from "./named-services.js";
import { answerBudgeted, type AnswerSize } from "./results/answer-budget.js";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The annotations of a tool that only reads from the service. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

export interface ToolContext {
  service: Service;
  /** The services a tool may name ("main", "local", "other"), for the tools that move records between them. */
  services?: ServiceDirectory;
  config: Config;
  /** The tools on in this session (toolsets, safe modes): an empty state or a next step names only these. */
  tools: ReadonlySet<string>;
  /** Aborted when the client cancels the call (or the server shuts down). Pass it to every service call. */
  signal: AbortSignal;
  /** Fires when the server must wind the call down (HTTP shutdown past its grace period, or the session closed by
   * DELETE): send nothing new, let what is in flight finish, and answer with what landed. Hard stops use `signal`. */
  stopping?: AbortSignal;
  /** Sends `notifications/progress` when the client asked for progress; otherwise does nothing. */
  progress(done: number, total?: number, message?: string): void;
  /** Whether the client sent a progress token (so progress notifications keep its request alive while a tool waits). */
  progressRequested?: boolean;
  log: Logger;
  /** Directories files may be read from: --allow-dir plus the client's MCP roots (file:// URIs), asked when needed. */
  allowedRoots(): Promise<string[]>;
  /**
   * Asks the person (MCP elicitation) to type `expected` back to confirm `message`. "unsupported" when the client
   * cannot ask (then --allow-destructive is the consent). Tools use src/tool-kit/confirm.ts rather than this.
   */
  askToConfirm?(message: string, expected: string): Promise<ConfirmAnswer>;
}

export type ConfirmAnswer = "confirmed" | "declined" | "cancelled" | "mismatch" | "unsupported";

export interface ToolResult<Out> {
  /** Becomes structuredContent; must match the tool's outputSchema. */
  structured: Out;
  /** The same facts as markdown (tables built with src/tool-kit/format/table.ts, so cells are escaped). */
  table: string;
  /**
   * What to do next, or what was left out and how to get it ("Next step: …"). The server appends it to the text and
   * puts it in structuredContent.note, so a client that shows only one channel still shows it.
   */
  note?: string;
  /** A result a model must act on (e.g. some records not written). Expected failures otherwise throw ToolError. */
  isError?: boolean;
}

export interface ToolDefinition<In extends z.ZodRawShape = z.ZodRawShape, Out extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  /** When a model should use the tool and what comes back. */
  description: string;
  /** zod 4 object shape: every field `.describe()`d, limits as min/max, no unions (no anyOf/oneOf/allOf). */
  inputSchema: In;
  outputSchema: Out;
  annotations: ToolAnnotations;
  /** The tool exists only when the server was started with --allow-destructive (the delete tools). */
  requiresAllowDestructive?: boolean;
  /** Arguments besides `index` that name an index, checked against --indexes (e.g. a future tool's `target`). */
  indexArguments?: readonly string[];
  /** Lists records sized by --max-result-tokens: tools/list says how large its result can be (resultSizeChars). */
  budgetedResult?: boolean;
  /** Changes something --indexes cannot scope (a collection, which may hold any index's records): absent under it. */
  unscopedWrite?: boolean;
  /** The answer it will receive, when that can be large: its calls then hold room in the answer budget while they run
   * (results/answer-budget.ts). */
  answerSize?: (args: z.output<z.ZodObject<In>>) => AnswerSize;
  run(args: z.output<z.ZodObject<In>>, ctx: ToolContext): Promise<ToolResult<z.output<z.ZodObject<Out>>>>;
}

/**
 * The two channels a client gets of a result, as the server sends them: the text (the table, then the note) and
 * structuredContent (the structured result with the note). The result budget measures exactly these.
 */
export function resultChannels(result: Pick<ToolResult<unknown>, "table" | "structured" | "note">): { text: string; structured: Record<string, unknown> } {
  const structured = result.structured as Record<string, unknown>;
  return result.note
    ? { text: `${result.table}\n\n${result.note}`, structured: { ...structured, note: result.note } }
    : { text: result.table, structured };
}

/** The field every tool's output schema gets (the server adds it; tools set ToolResult.note). */
const NOTE_FIELD = z
  .string()
  .optional()
  .describe("What to do next, or what was left out of this result and how to get it; the text ends with it too.");

/** A tool's output schema as listed and checked: its own fields plus `note`. */
export function outputShapeOf(tool: { outputSchema: z.ZodRawShape }): z.ZodRawShape {
  return { ...tool.outputSchema, note: NOTE_FIELD };
}

/**
 * The characters a budgeted tool's result can take, both channels, with --max-result-tokens `budget`: what tools/list
 * gives clients that read `_meta["anthropic/maxResultSizeChars"]` (Claude Code), so a result within the budget is taken
 * whole. A token of the estimate (results/tokens.ts) covers at most about five characters; Claude Code takes up to
 * 500,000.
 */
export function resultSizeChars(budget: number): number {
  return Math.min(500_000, 2 * 5 * budget);
}

/** Lets TypeScript infer a tool's argument and result types from its schemas; a tool with an answerSize holds room in
 * the answer budget while it runs. */
export function defineTool<In extends z.ZodRawShape, Out extends z.ZodRawShape>(def: ToolDefinition<In, Out>): ToolDefinition<In, Out> {
  return def.answerSize ? { ...def, run: answerBudgeted(def.name, def.run.bind(def), def.answerSize) } : def;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds tools of every shape
export type AnyTool = ToolDefinition<any, any>;
