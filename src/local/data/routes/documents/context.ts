// What every documents route works with: the request's route context, the namespace it names (already resolved
// through an alias for a read), the index's schema as the routes read it, and the body parsed.
import type { RouteContext } from "../../types.js";
import type { JsonObject } from "../../validate.js";
import type { SchemaView } from "./schema-view.js";

export interface DocumentsContext {
  ctx: RouteContext;
  /** The namespace as stored ("" for the default). */
  namespace: string;
  /** The namespace as the answer names it: the path's (an alias's target for a read through one). */
  namespaceName: string;
  view: SchemaView;
  body: JsonObject;
}
