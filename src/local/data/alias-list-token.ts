// The pagination token of a namespace alias listing carries the listing it continues — the index, the prefix and
// target filters — and the last name given, so the next page answers the same list whatever the request repeats
// (the spec: "Filters are carried by the token; if they are repeated in the request, they must match"). It is
// base64url JSON: opaque to clients, not a secret (it says nothing the caller did not send).

/** What a listing is of: `prefix` "" for none, `target` (as stored: "" is the default namespace) null for none. */
export interface AliasListing { index: string; prefix: string; target: string | null }

interface TokenBody { of: "namespace-aliases"; index: string; prefix: string; target: string | null; after: string }

export function aliasListToken(listing: AliasListing, after: string): string {
  const body: TokenBody = { of: "namespace-aliases", index: listing.index, prefix: listing.prefix, target: listing.target, after };
  return Buffer.from(JSON.stringify(body)).toString("base64url");
}

/** The listing and the last name a token carries; undefined when it is not a token of an alias listing of `index`. */
export function readAliasListToken(token: string, index: string): { listing: AliasListing; after: string } | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null) return undefined;
  const b = body as Partial<TokenBody>;
  if (b.of !== "namespace-aliases" || b.index !== index || typeof b.prefix !== "string" || typeof b.after !== "string") return undefined;
  if (b.target !== null && typeof b.target !== "string") return undefined;
  return { listing: { index, prefix: b.prefix, target: b.target }, after: b.after };
}
