// Preloaded into a spawned server (NODE_OPTIONS=--import this file, VECDB_TEST_REQUEST_LOG=a file): every HTTP request
// undici creates — method, origin, path, headers, body — is appended to the file as one JSON line, for tests that
// check what the server sends. Undici announces each request on a diagnostics channel whatever copy of it is
// bundled, so the server runs unchanged.
import { appendFileSync } from "node:fs";
import { subscribe } from "node:diagnostics_channel";

const log = process.env.VECDB_TEST_REQUEST_LOG;
if (log) {
  subscribe("undici:request:create", ({ request }) => {
    const flat = Array.isArray(request.headers) ? request.headers : [];
    const headers = {};
    for (let i = 0; i + 1 < flat.length; i += 2) headers[String(flat[i]).toLowerCase()] = String(flat[i + 1]);
    const body = Buffer.isBuffer(request.body) || request.body instanceof Uint8Array ? Buffer.from(request.body).toString("utf8") : typeof request.body === "string" ? request.body : undefined;
    appendFileSync(log, `${JSON.stringify({ method: request.method, origin: String(request.origin), path: request.path, headers, body })}\n`);
  });
}
