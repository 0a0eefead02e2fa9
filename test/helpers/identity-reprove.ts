// The local service's identity proof binds the port it was asked on, so an answer forwarded by a proxy fails at the
// proxy's port — as it must for a relay. The tests' own proxies are trusted: they hold the key of a service started by
// the helper (startedServiceKeys) and prove themselves for their own port and the index the service named.
import { identityProof, proofMatches } from "../../src/common/identity-proof.js";
import { startedServiceKeys } from "./local-service.js";

export function isIdentityQuestion(url: string | undefined): boolean {
  return url?.startsWith("/_vecdb/identity") === true;
}

/** The service's answer to the identity question at `targetPort`, proved again for `ownPort`. */
export function reproveForProxy(body: string, url: string, targetPort: number, ownPort: number): string {
  const nonce = new URLSearchParams(url.slice(url.indexOf("?") + 1)).get("nonce") ?? "";
  try {
    const answer = JSON.parse(body) as { proof?: unknown; index?: string };
    const binding = (port: number) => ({ port, ...(answer.index !== undefined && { index: answer.index }) });
    const key = [...startedServiceKeys].find((k) => proofMatches(k, nonce, binding(targetPort), answer.proof));
    return key === undefined ? body : JSON.stringify({ ...answer, proof: identityProof(key, nonce, binding(ownPort)) });
  } catch {
    return body;
  }
}
