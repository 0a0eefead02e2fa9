// Turns anything a tool throws into the text of an isError result: what went wrong, and what to do next.
// Never a stack trace; secrets are redacted by the caller (server.ts) from the final text.
import { IndexNotReadyError, ResponseShapeError, ServiceError, UntrustedHostError } from "../api/errors.js";
import { RecordCheckError } from "../ingest/check.js";
import { ToolError } from "../tool-kit/tool-error.js";
import { stripInvisible } from "../tool-kit/format/table.js";

/** Tools that write records into an existing index: a missing index may be one to create. */
const WRITES_RECORDS = new Set(["upsert_vectors", "import_vectors"]);

function nextStep(err: ServiceError, tool: string): string {
  const code = (err.code ?? "").toUpperCase();
  const text = err.serviceMessage.toLowerCase();
  if (err.status === undefined) {
    return "The service did not answer. Check PINECONE_CONTROLLER_HOST and that the service is running and reachable, then call again.";
  }
  if (err.status === 401 || code === "UNAUTHENTICATED") {
    return "Check PINECONE_API_KEY: the service did not accept the key. Set the right key in the server's environment and restart the server.";
  }
  if (err.status === 403 || code === "FORBIDDEN") {
    return "The API key is not allowed to do this. Check the key's project and permissions.";
  }
  if (err.status === 402 || code === "PAYMENT_REQUIRED" || code === "QUOTA_EXCEEDED") {
    return "The project's plan or quota does not allow this. Free resources or upgrade the plan, then call again.";
  }
  if (err.status === 404 || code === "NOT_FOUND") {
    if (aboutCollection(err)) return "Call list_collections to see the collections there are, then call again with one of those names.";
    return WRITES_RECORDS.has(tool)
      ? "Call list_indexes to see the indexes there are and call again with one of those names, or create the index with create_index first."
      : "Call list_indexes to see the indexes there are, then call again with one of those names.";
  }
  if (err.status === 409 || code === "ALREADY_EXISTS") {
    return "The name is taken. Choose another name (list_collections and list_indexes show the names in use).";
  }
  if (err.status === 412 || code === "FAILED_PRECONDITION" || /not ready/.test(text)) {
    return "The resource is not in a state that allows this yet (e.g. not ready). Wait a little and call again; list_indexes shows each index's state.";
  }
  if (err.status === 429) return "The service is limiting the request rate. Wait a few seconds and call again.";
  if (/^the embeddings server at /.test(text)) return "The local service's embeddings server is not working as the message says: start it or correct --embed-url (VECDB_EMBED_URL), then call again; the model local-bm25 (keywords) works without it.";
  if (/is not available on the local service/.test(text)) return "Use a model list_models shows (local-bm25 for keywords), or add models as the message says.";
  if (err.status >= 500) return "The service had a problem of its own. Wait a moment and call again.";
  return "Correct the request as the message says and call again.";
}

/**
 * Whether a 404 is about a collection: the URL asked for one (the hosted service says "Resource x not found" for
 * both kinds), or the message starts with "Collection" (a create from a source collection). Not "the message
 * mentions a collection": an index may be named "old-collection".
 */
function aboutCollection(err: ServiceError): boolean {
  let path = "";
  try {
    path = new URL(err.url).pathname;
  } catch {
    // not a URL: decide by the message alone
  }
  return path.startsWith("/collections") || /^\s*(source\s+)?collection\b/i.test(err.serviceMessage);
}

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Longest service message a model is shown; the service's own words are data, quoted, never a paragraph of ours. */
const SERVICE_MESSAGE_CHARS = 800;

/**
 * The service's text as one quoted line: invisible and direction controls dropped, shortened, JSON-escaped. A long
 * message loses its middle, not its end: the fix is where a message ends ("…start the local service with --embed-url").
 */
function quoted(text: string): string {
  const chars = [...stripInvisible(text)];
  const keepEnd = Math.floor(SERVICE_MESSAGE_CHARS * 0.6);
  const short = chars.length <= SERVICE_MESSAGE_CHARS ? chars.join("") : `${chars.slice(0, SERVICE_MESSAGE_CHARS - keepEnd - 1).join("")}…${chars.slice(-keepEnd).join("")}`;
  return JSON.stringify(short);
}

/** What happened, in one line: 'the service answered HTTP 404 NOT_FOUND: "Index x not found."' */
export function describeServiceError(err: ServiceError): string {
  if (err.status === undefined) return `got no answer from ${origin(err.url)}: ${err.serviceMessage}`;
  // The data plane's codes are gRPC numbers ("3"), which tell a reader nothing the status does not.
  const code = err.code && !/^\d+$/.test(err.code) ? ` ${quotedCode(err.code)}` : "";
  const message = err.serviceMessage ? `: ${quoted(err.serviceMessage)}` : "";
  return `the service answered HTTP ${err.status}${code}${message}`;
}

/** A code such as NOT_FOUND or 3 as it is; anything else the service put there, quoted. */
function quotedCode(code: string): string {
  return /^[A-Za-z0-9_]{1,40}$/.test(code) ? code : quoted(code);
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === "AbortError";
}

/** The text of the isError result for an error thrown while running `tool`. */
export function errorText(tool: string, err: unknown): string {
  if (err instanceof ToolError) return err.message;
  if (err instanceof ServiceError) {
    const tries = err.attempts > 1 ? ` (after ${err.attempts} attempts)` : "";
    return `${tool} failed — ${describeServiceError(err)}${tries}\nNext step: ${nextStep(err, tool)}`;
  }
  if (err instanceof IndexNotReadyError) return `${tool} failed: ${err.message} Nothing was written.`;
  if (err instanceof RecordCheckError) return `${tool} failed: ${err.message}`;
  if (err instanceof UntrustedHostError) {
    return `${tool} failed: ${err.message}\nNext step: check PINECONE_CONTROLLER_HOST; the service must name index hosts it serves.`;
  }
  if (err instanceof ResponseShapeError) {
    return `${tool} failed: ${err.message}\nNext step: check that PINECONE_CONTROLLER_HOST points at a Pinecone-compatible service and PINECONE_API_VERSION is one it supports.`;
  }
  if (isAbort(err)) return `${tool} was cancelled before it finished.`;
  const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
  return `${tool} failed with an internal error: ${message}\nNext step: call again; if it keeps failing, check the server's log on stderr.`;
}
