// What an embeddings-server URL may hold (--embed-url / VECDB_EMBED_URL), for the server and for `serve` alike.
// Credentials in it (user:pass@, ?key=…) would be printed, listed by list_models and logged: its key goes in
// VECDB_EMBED_KEY, sent only as the bearer token. The URL itself is never repeated in the refusal.

/** Why `url` is not a usable embeddings-server URL (to follow the setting's name), or undefined when it is. */
export function embedUrlProblem(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return "must be an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1";
  const parsed = new URL(url);
  if (parsed.username !== "" || parsed.password !== "") {
    return "must not hold a user name or password (user:pass@): it is shown in logs and by list_models; give the embeddings server's key in VECDB_EMBED_KEY";
  }
  if (parsed.search !== "" || parsed.hash !== "" || url.includes("?")) {
    return "must not hold a query string or fragment (?…, #…): a key there is shown in logs and by list_models; give the embeddings server's key in VECDB_EMBED_KEY";
  }
  return undefined;
}
