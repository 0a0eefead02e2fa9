// Proof that a loopback port is this data dir's service, without sending it the key: the caller sends a fresh
// nonce, the service answers an HMAC of it under the key. A process squatting on a stale port learns nothing and
// cannot answer.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const IDENTITY_PATH = "/_vecdb/identity";
export const ATTACH_PATH = "/_vecdb/attach";

export function newNonce(): string {
  return randomBytes(16).toString("hex");
}

export function identityProof(apiKey: string, nonce: string): string {
  return createHmac("sha256", apiKey).update(`vecdb-mcp local service identity ${nonce}`).digest("hex");
}

export function proofMatches(apiKey: string, nonce: string, proof: unknown): boolean {
  if (typeof proof !== "string") return false;
  const want = Buffer.from(identityProof(apiKey, nonce));
  const got = Buffer.from(proof);
  return got.length === want.length && timingSafeEqual(got, want);
}
