// Proof that a loopback listener is the local service, without sending it the key: the caller sends a fresh nonce to
// IDENTITY_PATH, the service answers an HMAC under the key of the nonce AND of what was dialled — the port it was asked
// on (its own socket's port, never a header) and what listens there (the control plane, or one index's data plane).
// A process squatting on a stale port learns nothing and cannot answer; relaying the nonce to a live port of the real
// service does not help either, since that answer is for the live port, not the one the client dialled.
// Asked by the client of every loopback listener (src/api/loopback-identity.ts) and by a server looking for its data
// dir's shared service (src/local/sharing/find-or-start.ts); answered by src/local/http-util.ts.
import { createHmac, timingSafeEqual } from "node:crypto";

export const IDENTITY_PATH = "/_vecdb/identity";

/** What a listener is: the control plane, or the data plane of the named index. */
export interface IdentityBinding {
  port: number;
  /** The index whose data plane listens there; absent for the control plane. */
  index?: string;
}

export function identityProof(apiKey: string, nonce: string, binding: IdentityBinding): string {
  const what = binding.index === undefined ? "control" : `index ${JSON.stringify(binding.index)}`;
  return createHmac("sha256", apiKey).update(`vecdb-mcp local service identity ${nonce} port ${binding.port} ${what}`).digest("hex");
}

export function proofMatches(apiKey: string, nonce: string, binding: IdentityBinding, proof: unknown): boolean {
  if (typeof proof !== "string") return false;
  const want = Buffer.from(identityProof(apiKey, nonce, binding));
  const got = Buffer.from(proof);
  return got.length === want.length && timingSafeEqual(got, want);
}
