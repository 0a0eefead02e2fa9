// Proof that a loopback listener is the local service, without sending it the key: the caller sends a fresh nonce to
// IDENTITY_PATH, the service answers an HMAC of it under the key. A process squatting on a stale port learns nothing
// and cannot answer. Asked by the client of every loopback listener (src/api/loopback-identity.ts) and by a server
// looking for its data dir's shared service (src/local/sharing/find-or-start.ts); answered by src/local/http-util.ts.
import { createHmac, timingSafeEqual } from "node:crypto";

export const IDENTITY_PATH = "/_vecdb/identity";

export function identityProof(apiKey: string, nonce: string): string {
  return createHmac("sha256", apiKey).update(`vecdb-mcp local service identity ${nonce}`).digest("hex");
}

export function proofMatches(apiKey: string, nonce: string, proof: unknown): boolean {
  if (typeof proof !== "string") return false;
  const want = Buffer.from(identityProof(apiKey, nonce));
  const got = Buffer.from(proof);
  return got.length === want.length && timingSafeEqual(got, want);
}
