// What a 2026-07-28 call carries between its rounds (multi round-trip requests). That era has no server-to-client
// requests: a call that must ask the client something (a confirmation, the client's roots) answers
// `input_required` with the question and a `requestState`, and the client calls again with the answer and that state.
// The state goes through the client, so it is signed (HMAC, the SDK's createRequestStateCodec) with the server's
// secret (VECDB_HTTP_STATE_SECRET, the same on every process behind one load balancer; else random per
// process), bound to the caller (the HTTP bearer token, as an HMAC tag) and valid for STATE_TTL_S; it names the tool
// and a digest of its arguments, and a nonce accepted once by every process sharing the data dir. The SDK refuses a
// state whose signature, binding or expiry fails (-32602) before any handler runs; checkCallState refuses one issued
// for another call or used before. The tool then runs again from the start and meets the same question: answered now, it goes on.
import { join } from "node:path";
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type ClientCapabilities,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";

type InputRequest = ReturnType<typeof inputRequired.elicit>;

/** node:crypto, loaded when a call first needs it: loading it costs a cold start about 8 ms of CPU, and only a
 * 2026-07-28 call that asks the client something uses it. */
const crypto = () => process.getBuiltinModule("node:crypto");

/** How long a question's state stays good: a person reads and answers within it. */
const STATE_TTL_S = 600;

interface CallState {
  tool: string;
  /** sha256 of the arguments, keys sorted. */
  args: string;
  nonce: string;
  /** The question the client was asked last round: its key in inputRequests and what it asked, as a digest. */
  pending: { key: string; question: string };
  /** Earlier rounds' answers (the client sends only the last round's). */
  answers: Record<string, { question: string; value: unknown }>;
}

/** Thrown from inside a tool's run when it needs an answer the client has not given: the call answers input_required. */
export class InputNeeded extends Error {
  constructor(
    readonly key: string,
    readonly question: string,
    readonly request: InputRequest,
  ) {
    super(`input needed: ${key}`);
  }
}

/** A 2026-07-28 request's version and client capabilities (its _meta, as the SDK lifted it); undefined in the old era. */
export function newEraCall(ctx: ServerContext): { capabilities: ClientCapabilities } | undefined {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  if (typeof envelope[PROTOCOL_VERSION_META_KEY] !== "string") return undefined;
  return { capabilities: (envelope[CLIENT_CAPABILITIES_META_KEY] ?? {}) as ClientCapabilities };
}

const codecs = new Map<string, RequestStateCodec<CallState>>();
let processSecret: string | undefined;

/** The codec for this secret (or the process's random one, drawn on the codec's first use), made once. */
export function stateCodec(secret: string | undefined): RequestStateCodec<CallState> {
  if (secret !== undefined) return codecFor(secret);
  const own = () => codecFor((processSecret ??= crypto().randomBytes(32).toString("base64url")));
  return { mint: (payload, ctx) => own().mint(payload, ctx), verify: (state, ctx) => own().verify(state, ctx) };
}

function codecFor(key: string): RequestStateCodec<CallState> {
  let codec = codecs.get(key);
  if (!codec) {
    codec = createRequestStateCodec<CallState>({ key, ttlSeconds: STATE_TTL_S, bind: (ctx) => ctx.http?.authInfo?.token ?? "" });
    codecs.set(key, codec);
  }
  return codec;
}

/** The arguments as one digest, whatever the order of their keys. */
function argumentsDigest(args: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v !== null && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
  return crypto().createHash("sha256").update(JSON.stringify(canonical(args ?? {}))).digest("base64url");
}

export const questionDigest = (...parts: string[]) => crypto().createHash("sha256").update(parts.join("\0")).digest("base64url");

/** Marks the nonce used in the data dir's folder (used-states.ts), which every process sharing it reads: false if it was. */
async function consume(nonce: string, usedStatesFolder: string): Promise<boolean> {
  const { takeOnce } = await import("./used-states.js");
  try {
    return await takeOnce(usedStatesFolder, nonce, STATE_TTL_S * 1000);
  } catch (err) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Could not record that the requestState was used (${(err as Error).message}); nothing was done.`);
  }
}

/** Where the processes sharing this data dir mark the request states they took. */
export const usedStatesFolder = (dataDir: string): string => join(dataDir, "used-request-states");

const refused = (why: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid requestState: ${why}; nothing was done. Call the tool again without it.`);

/**
 * Refuses (throws -32602) a state issued for another tool or other arguments, or already used by a process sharing the
 * data dir; runs before the SDK's own check of the state (which refuses a bad signature, binding or expiry with its
 * own -32602).
 */
export async function checkCallState(
  ctx: ServerContext,
  codec: RequestStateCodec<CallState>,
  tool: string,
  args: unknown,
  usedStates: string,
): Promise<void> {
  const raw = ctx.mcpReq.requestState();
  if (typeof raw !== "string") return; // none (or not a string: the SDK refuses it)
  let state: CallState;
  try {
    state = await codec.verify(raw, ctx);
  } catch {
    return; // the SDK refuses it next, and logs why
  }
  if (state.tool !== tool || state.args !== argumentsDigest(args)) throw refused("it was issued for another call");
  if (!(await consume(state.nonce, usedStates))) throw refused("it was used already");
}

/** One call's rounds: the answers it has (earlier rounds' and this one's), and the input_required that asks for more. */
export function callRounds(ctx: ServerContext, tool: string, args: unknown, codec: RequestStateCodec<CallState>) {
  const state = ctx.mcpReq.requestState<CallState>();
  const answers: CallState["answers"] = { ...state?.answers };
  const response = state && ctx.mcpReq.inputResponses?.[state.pending.key];
  if (state && response !== undefined) answers[state.pending.key] = { question: state.pending.question, value: response };
  return {
    /** The client's answer to this question, or throws InputNeeded to ask it. */
    ask(key: string, question: string, request: InputRequest): unknown {
      const answer = answers[key];
      if (answer?.question === question) return answer.value;
      throw new InputNeeded(key, question, request);
    },
    /** The input_required result that asks `needed`, carrying what is known so far. */
    async asking(needed: InputNeeded) {
      const next: CallState = { tool, args: argumentsDigest(args), nonce: crypto().randomUUID(), pending: { key: needed.key, question: needed.question }, answers };
      return inputRequired({ inputRequests: { [needed.key]: needed.request }, requestState: await codec.mint(next, ctx) });
    },
  };
}

export type CallRounds = ReturnType<typeof callRounds>;
