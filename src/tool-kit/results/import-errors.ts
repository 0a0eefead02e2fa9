// What the bulk-import tools say when the service answers 404 for an import.
import { ServiceError } from "../../api/errors.js";
import { ToolError } from "../tool-error.js";

export function importNotFound(err: unknown, index: string, id: string, nothing: string): never {
  if (err instanceof ServiceError && err.status === 404 && /\/bulk\/imports\//.test(err.url)) {
    throw new ToolError(`Import ${JSON.stringify(id)} not found in index ${JSON.stringify(index)}. ${nothing}\nNext step: list_bulk_imports shows the imports of the index.`);
  }
  throw err;
}
