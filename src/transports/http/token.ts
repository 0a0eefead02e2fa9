// `--http` with no VECDB_HTTP_TOKEN: a token is generated for the run (an open loopback port is open to every local
// user and process), shown once on stderr — never stdout — with how a client sends it.
import { randomBytes } from "node:crypto";

/** 32 random bytes, base64url: 43 characters, fit for a header and a shell. */
export function newHttpToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The stderr lines that show a generated token once. */
export function generatedTokenNotice(url: string, token: string): string {
  return (
    `vecdb-mcp: no VECDB_HTTP_TOKEN was set, so this run generated one. Every request must carry it:\n` +
    `vecdb-mcp:   Authorization: Bearer ${token}\n` +
    `vecdb-mcp:   client entry: { "type": "http", "url": "${url}", "headers": { "Authorization": "Bearer ${token}" } }\n` +
    `vecdb-mcp: set VECDB_HTTP_TOKEN to keep one token across restarts (or --insecure-http-no-token to serve every local user with none)\n`
  );
}
