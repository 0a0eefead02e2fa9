// Indexes as MCP resources: resources/list names every index the safe modes let this session see
// (vecdb://indexes/{name}); reading one gives what describe_index and describe_index_stats give — the record and the
// counts — as JSON and as a markdown table. vecdb://collections and vecdb://backups list those. Reads go through the
// same tools (and the same --indexes-scoped service), so a resource never shows more than a tool would.
import { ResourceNotFoundError, ResourceTemplate, type McpServer, type ReadResourceResult } from "@modelcontextprotocol/server";
import { ServiceError } from "../api/errors.js";
import { ToolError } from "../tool-kit/tool-error.js";
import type { AnyTool, ToolContext } from "../tool-kit/tool.js";

/** A tool by name, its module loaded when a resource is first read through it (tool-catalog.ts). */
type ToolByName = { name: string; load(): Promise<AnyTool> };

const JSON_TYPE = "application/json";
const MARKDOWN = "text/markdown";

/** Why an index could not be read, in words that name no address of the service. */
function readFailure(name: string, err: unknown): string {
  if (err instanceof ServiceError && err.status === 404) return `Index ${JSON.stringify(name)} not found. resources/list (or list_indexes) shows the indexes there are.`;
  if (err instanceof ServiceError) return `Index ${JSON.stringify(name)} could not be read: ${err.status === undefined ? "the service did not answer" : `the service answered HTTP ${err.status}`}.`;
  if (err instanceof ToolError) return err.message;
  return `Index ${JSON.stringify(name)} could not be read.`;
}

/** `contextFor` may have to wait for the service (a shared local service found or started on demand). */
export function registerResources(server: McpServer, tools: readonly ToolByName[], contextFor: (signal: AbortSignal) => Promise<ToolContext>): void {
  const tool = (name: string) => tools.find((t) => t.name === name);
  const describeIndex = tool("describe_index");
  const stats = tool("describe_index_stats");
  const collections = tool("list_collections");
  const backups = tool("list_backups");
  if (!describeIndex) return;

  server.registerResource(
    "index",
    new ResourceTemplate("vecdb://indexes/{name}", {
      list: async (extra) => {
        const indexes = await (await contextFor(extra.mcpReq.signal)).service.control.listIndexes(extra.mcpReq.signal);
        return {
          resources: indexes.map((i) => ({
            uri: `vecdb://indexes/${encodeURIComponent(i.name)}`,
            name: i.name,
            title: `Index ${i.name}`,
            description: `${i.spec.serverless ? "serverless" : i.spec.pod ? "pod-based" : "other"} index, ${
              i.dimension ? `dimension ${i.dimension}, ` : i.vector_type === "sparse" ? "sparse, " : ""
            }${i.metric}, ${i.status.state}`,
            mimeType: JSON_TYPE,
          })),
        };
      },
    }),
    { title: "Vector index", description: "One index: its description and record counts (as describe_index and describe_index_stats give them).", mimeType: JSON_TYPE },
    async (uri, variables, extra): Promise<ReadResourceResult> => {
      const name = decodeURIComponent(String(variables.name));
      const ctx = await contextFor(extra.mcpReq.signal);
      const described = await (await describeIndex.load()).run({ index: name }, ctx).catch((err: unknown) => {
        // Missing, or out of this server's --indexes (invisible then): no such resource (-32602; -32002 before 2026-07-28).
        const missing = (err instanceof ServiceError && err.status === 404) || err instanceof ToolError;
        throw missing ? new ResourceNotFoundError(uri.href, readFailure(name, err)) : new Error(readFailure(name, err));
      });
      let counted: Awaited<ReturnType<AnyTool["run"]>> | undefined;
      if (stats && (described.structured as { index: { ready?: boolean } }).index.ready) {
        counted = await stats.load().then((tool) => tool.run({ index: name }, ctx)).catch(() => undefined);
      }
      const json = { ...(described.structured as object), ...(counted ? { stats: counted.structured } : {}) };
      const text = [described.table, counted?.table].filter(Boolean).join("\n\n");
      return {
        contents: [
          { uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(json, null, 2) },
          { uri: uri.href, mimeType: MARKDOWN, text },
        ],
      };
    },
  );

  for (const [name, listTool, title] of [
    ["collections", collections, "Collections"],
    ["backups", backups, "Backups"],
  ] as const) {
    if (!listTool) continue;
    server.registerResource(
      name,
      `vecdb://${name}`,
      { title, description: `Every ${name === "collections" ? "collection" : "backup"} there is, as ${listTool.name} lists them.`, mimeType: JSON_TYPE },
      async (uri, extra): Promise<ReadResourceResult> => {
        const result = await (await listTool.load()).run({}, await contextFor(extra.mcpReq.signal));
        return {
          contents: [
            { uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(result.structured, null, 2) },
            { uri: uri.href, mimeType: MARKDOWN, text: result.table },
          ],
        };
      },
    );
  }
}
