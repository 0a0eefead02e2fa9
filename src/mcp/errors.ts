// Turns anything a tool throws into the text of an isError result: what went wrong, and what to do next.
// Never a stack trace; secrets are redacted by the caller (server.ts) from the final text.
import { IndexNotReadyError, ResponseShapeError, ServiceError, UntrustedHostError } from "../api/errors.js";
import { RecordCheckError } from "../ingest/check.js";
import { ToolError } from "../tool-kit/tool-error.js";
import { stripInvisible } from "../tool-kit/format/table.js";
import { listingStep, resourceOf } from "../tool-kit/missing-resource.js";
import { refusalText, untouchedBy, type Declared, type Refusal } from "../tool-kit/refusal.js";

/** The tool as the error text needs it: its name, and what it does (which says what a failed call did not do). */
export type FailedTool = Declared & { name: string; annotations: { destructiveHint: boolean } };

/** A tool that overwrites records without being a delete tool (the upserts, imports): a missing index may be one to create. */
function writesRecords(tool: FailedTool): boolean {
  return !tool.annotations.readOnlyHint && tool.annotations.destructiveHint && !tool.requiresAllowDestructive;
}

function nextStep(err: ServiceError, tool: FailedTool): string {
  const code = (err.code ?? "").toUpperCase();
  const text = err.serviceMessage.toLowerCase();
  if (code === "VECDB_IDENTITY" && /could not prove/.test(err.serviceMessage)) {
    return "Check PINECONE_API_KEY and PINECONE_CONTROLLER_HOST: the listener there is not the local service holding this key. Tell the user: set the service's key, or point the controller host at the service (another program, or another user, may listen on that port).";
  }
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
    const resource = aboutCollection(err) ? "collection" : (resourceOf(err.url) ?? "index");
    const step = listingStep(resource);
    return resource === "index" && writesRecords(tool)
      ? `${step.slice(0, -1)}, or create the index first (create_index; create_index_for_model for records of text).`
      : step;
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
 * Whether a 404 from another URL is about a collection: the message starts with "Collection" (a create from a source
 * collection). Not "the message mentions a collection": an index may be named "old-collection".
 */
function aboutCollection(err: ServiceError): boolean {
  return /^\s*(source\s+)?collection\b/i.test(err.serviceMessage);
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
function describeServiceError(err: ServiceError): string {
  if (err.status === undefined) return `${err.code === "VECDB_IDENTITY" ? "refused" : "got no answer from"} ${origin(err.url)}: ${err.serviceMessage}`;
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

/** An error the call ended with, and what the server adds to its text (e.g. that the call was not retried). */
export class ErrorWithNote extends Error {
  constructor(
    readonly error: unknown,
    readonly note: string,
  ) {
    super(note);
  }
}

/** The text of the isError result for an error thrown while running `declared`. */
export function errorText(declared: FailedTool, err: unknown): string {
  if (err instanceof ErrorWithNote) return `${errorText(declared, err.error)}\n${err.note}`;
  const refusal = err instanceof ToolError ? err.refusal : failure(declared, err);
  return refusalText(refusal, untouchedBy(declared));
}

/** What went wrong with a call that got under way (the service was asked, or the server failed), as a refusal. */
function failure(declared: FailedTool, err: unknown): Refusal {
  const tool = declared.name;
  if (err instanceof ServiceError) {
    const tries = err.attempts > 1 ? ` (after ${err.attempts} attempts)` : "";
    return { problem: `${tool} failed — ${describeServiceError(err)}${tries}`, untouched: false, next: nextStep(err, declared) };
  }
  if (err instanceof IndexNotReadyError) return { problem: `${tool} failed: ${err.message}` };
  if (err instanceof RecordCheckError) return { problem: `${tool} failed: ${err.message}`, untouched: false };
  if (err instanceof UntrustedHostError) {
    return { problem: `${tool} failed: ${err.message}`, untouched: false, next: "check PINECONE_CONTROLLER_HOST; the service must name index hosts it serves." };
  }
  if (err instanceof ResponseShapeError) {
    return {
      problem: `${tool} failed: ${err.message}`,
      untouched: false,
      next: "check that PINECONE_CONTROLLER_HOST points at a Pinecone-compatible service and PINECONE_API_VERSION is one it supports.",
    };
  }
  if (isAbort(err)) return { problem: `${tool} was cancelled before it finished.`, untouched: false };
  const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
  return {
    problem: `${tool} failed with an internal error: ${message}`,
    untouched: false,
    next: "call again; if it keeps failing, check the server's log on stderr.",
  };
}
