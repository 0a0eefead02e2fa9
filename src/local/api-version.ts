// Which API version a request speaks, by its X-Pinecone-Api-Version header (HTTP headers are case-insensitive).
// 2026-07 and later dated versions get the 2026-07 shapes, status codes and errors; earlier versions, or no header
// (the service then answers as an older stable version), get what the clients of 2026-04 and before expect.
import type { IncomingHttpHeaders } from "node:http";

export type ApiVersion = "2026-04" | "2026-07";

export function requestApiVersion(headers: IncomingHttpHeaders): ApiVersion {
  const raw = headers["x-pinecone-api-version"];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? "";
  return /^\d{4}-\d{2}$/.test(value) && value >= "2026-07" ? "2026-07" : "2026-04";
}
