// What every request meets before the SDK's own handlers, whichever transport brought it:
// - params nested deeper than MAX_PARAMS_DEPTH are refused up front with -32602 and the limit (the SDK, zod and our
//   own walks of the arguments recurse, and 100,000 levels end in "Maximum call stack size exceeded", -32603);
// - params the SDK's schema refuses (tools/call without name, logging/setLevel with an unknown level) get -32602
//   Invalid params with one short line, not -32603 with zod's raw dump (the SDK parses them inside the handler and
//   lets the ZodError through as an internal error);
// - `capabilities.tools.listChanged` is not promised: the tool list is fixed for a session (the safe modes decide it
//   at start), but the SDK's McpServer announces listChanged as soon as one tool is registered.
// The SDK has no public hook in front of its handlers, so this wraps the handler map (sdk-internals.ts).
import { ProtocolErrorCode, type McpServer } from "@modelcontextprotocol/server";
import { announcedCapabilities, requestHandlers } from "./sdk-internals.js";

/** How deep params may nest (objects and arrays, params itself is level 1). A metadata filter needs far less. */
const MAX_PARAMS_DEPTH = 64;

/** An error the SDK answers with its own code and message as they are (McpError would prefix "MCP error -32602: "). */
const invalidParams = (message: string) => Object.assign(new Error(message), { code: ProtocolErrorCode.InvalidParams });

/** The path of the first value nested deeper than `max` levels, or undefined. Iterative: it must not overflow itself. */
export function tooDeepAt(value: unknown, max: number, root = "params"): string | undefined {
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: value, depth: 1, path: root }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > max) return path;
    if (Array.isArray(v)) {
      // A long list of numbers (an upsert's values) has nothing nested: skip it without a push per value.
      if (v.length > 0 && (v[0] === null || typeof v[0] !== "object") && (v.at(-1) === null || typeof v.at(-1) !== "object")) {
        if (v.every((x) => x === null || typeof x !== "object")) continue;
      }
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, path: `${path}[${i}]` });
    } else {
      for (const [k, x] of Object.entries(v)) stack.push({ v: x, depth: depth + 1, path: `${path}.${k}` });
    }
  }
  return undefined;
}

interface ZodLikeIssue {
  code?: string;
  path?: PropertyKey[];
  message?: string;
  values?: unknown[];
  expected?: string;
  input?: unknown;
}

/** The zod issues behind a params check the SDK failed: a ZodError, or an Error whose message is (or ends with) the
 * issues as JSON (what the SDK's v2 wire codec and its tools/call check throw); undefined for any other error. */
function zodIssues(err: unknown): ZodLikeIssue[] | undefined {
  if (!(err instanceof Error)) return undefined;
  const issues = (err as { issues?: unknown }).issues;
  if (/ZodError$/.test(err.name) && Array.isArray(issues)) return issues as ZodLikeIssue[];
  const json = /^(?:Invalid [\w/]+ request: )?(\[[\s\S]*\])$/.exec(err.message.trim())?.[1];
  if (json === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(json);
    const isIssue = (i: unknown) => typeof i === "object" && i !== null && "code" in i && "path" in i;
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every(isIssue) ? (parsed as ZodLikeIssue[]) : undefined;
  } catch {
    return undefined;
  }
}

/** One short line for the first issue, e.g. `params.level must be one of "debug", "info", …`. */
export function shortIssue(issue: ZodLikeIssue): string {
  const where = ["params", ...(issue.path ?? []).filter((p) => p !== "params").map(String)].join(".");
  if (issue.code === "invalid_value" && Array.isArray(issue.values)) {
    return `${where} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  if (issue.code === "invalid_type" && issue.input === undefined) return `${where} is required (${issue.expected ?? "a value"})`;
  if (issue.code === "invalid_type") return `${where} must be ${issue.expected === "object" ? "an object" : `a ${issue.expected}`}`;
  return `${where}: ${(issue.message ?? "invalid").split("\n")[0]}`;
}

export function guardRequests(server: McpServer): void {
  const handlers = requestHandlers(server);
  if (handlers) {
    for (const [method, handler] of handlers) {
      handlers.set(method, async (request, extra) => {
        const deep = tooDeepAt(request.params, MAX_PARAMS_DEPTH);
        if (deep !== undefined) {
          throw invalidParams(
            `Invalid params: nested deeper than ${MAX_PARAMS_DEPTH} levels (at ${deep.slice(0, 120)}${deep.length > 120 ? "…" : ""}); ` +
              `this server accepts at most ${MAX_PARAMS_DEPTH} levels of objects and arrays`,
          );
        }
        try {
          return await handler(request, extra);
        } catch (err) {
          const issues = zodIssues(err);
          if (!issues) throw err;
          throw invalidParams(`Invalid params for ${method}: ${shortIssue(issues[0] ?? {})}`);
        }
      });
    }
  }
  // The tool list never changes during a session: promise no tools/list_changed notification.
  const caps = announcedCapabilities(server);
  if (caps?.tools) delete caps.tools.listChanged;
}
