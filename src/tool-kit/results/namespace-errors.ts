// What a namespace tool says when the service answers 404 / 409 for a namespace (not for the index).
import { ServiceError } from "../../api/errors.js";
import { ToolError } from "../tool-error.js";

/** Rethrows a 404 on /namespaces/… as "namespace not found" with the next step; anything else as it is. */
export function namespaceNotFound(err: unknown, index: string, namespace: string, nothing: string): never {
  if (err instanceof ServiceError && err.status === 404 && /\/namespaces\//.test(err.url)) {
    throw new ToolError(
      `Namespace ${JSON.stringify(namespace)} not found in index ${JSON.stringify(index)}. ${nothing}\n` +
        "Next step: list_namespaces shows the namespaces there are; call again with one of them.",
    );
  }
  throw err;
}
