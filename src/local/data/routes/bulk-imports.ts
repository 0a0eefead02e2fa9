// POST /bulk/imports {uri, integrationId?, errorMode?} → {id}; GET /bulk/imports → {data, pagination?};
// GET /bulk/imports/{id} → the import; DELETE /bulk/imports/{id} → {} (cancel). See imports/bulk-imports.ts.
import { DataPlaneError, GRPC, invalid } from "../errors.js";
import type { RouteContext } from "../types.js";
import { parseBody } from "../validate.js";

export async function bulkImportRoute({ req, index, extras }: RouteContext, encodedId: string | undefined): Promise<unknown> {
  const imports = extras?.imports;
  if (!imports) throw new DataPlaneError(501, GRPC.UNIMPLEMENTED, `${req.method} ${req.pathname} is not supported here`);
  const method = req.method.toUpperCase();
  if (encodedId === undefined) {
    if (method === "POST") return imports.start(index, parseBody(req.body));
    if (method === "GET") return imports.list(index, req.query);
    throw new DataPlaneError(405, GRPC.UNIMPLEMENTED, `Method ${req.method} is not allowed on /bulk/imports; use GET or POST`);
  }
  let id: string;
  try {
    id = decodeURIComponent(encodedId);
  } catch {
    throw invalid("The import id in the path is not valid percent-encoding");
  }
  if (method === "GET") return imports.describe(index, id);
  if (method === "DELETE") return imports.cancel(index, id);
  throw new DataPlaneError(405, GRPC.UNIMPLEMENTED, `Method ${req.method} is not allowed on /bulk/imports/{id}; use GET or DELETE`);
}
