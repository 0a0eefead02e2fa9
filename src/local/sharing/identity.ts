// The shared service's own paths and the nonce of its identity check (the proof itself: src/common/identity-proof.ts).
import { randomBytes } from "node:crypto";

export const ATTACH_PATH = "/_vecdb/attach";

export function newNonce(): string {
  return randomBytes(16).toString("hex");
}
