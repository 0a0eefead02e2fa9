// Data-plane errors in the service's gRPC-style shape: {"code": N, "message": "...", "details": []}.

import { FilterError } from "../search/filter.js";
import { MemoryLimitError } from "../memory/vectors.js";

export { quote } from "../json.js";

export const GRPC = { INVALID_ARGUMENT: 3, NOT_FOUND: 5, ALREADY_EXISTS: 6, FAILED_PRECONDITION: 9, UNIMPLEMENTED: 12, INTERNAL: 13 } as const;

export class DataPlaneError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    /** google.rpc.ErrorInfo entries (2026-07 names the reason of some refusals, e.g. namespace aliases'). */
    readonly details: unknown[] = [],
  ) {
    super(message);
  }
}

export function invalid(message: string): DataPlaneError {
  return new DataPlaneError(400, GRPC.INVALID_ARGUMENT, message);
}

export function notFound(message: string): DataPlaneError {
  return new DataPlaneError(404, GRPC.NOT_FOUND, message);
}

/**
 * What the layers below refuse with (their domain errors) as the data plane answers it, or undefined for an error
 * nobody foresaw: a filter breaking a rule → 400 INVALID_ARGUMENT "Invalid filter: …"; memory full → 400
 * FAILED_PRECONDITION "Nothing was done: …". Each route's catch gives it the shape of the request's API.
 */
export function refusalOf(e: unknown): DataPlaneError | undefined {
  if (e instanceof DataPlaneError) return e;
  if (e instanceof FilterError) return invalid(`Invalid filter: ${e.message}`);
  if (e instanceof MemoryLimitError) return new DataPlaneError(400, GRPC.FAILED_PRECONDITION, `Nothing was done: ${e.message}.`);
  return undefined;
}

export function errorBody(e: DataPlaneError): { code: number; message: string; details: unknown[] } {
  return { code: e.code, message: e.message, details: e.details };
}

/** The hosted service's refusals of what one kind of index does not support, in its words. */
export const UNSUPPORTED = {
  statsFilterOnServerless: "Serverless and starter indexes do not support describing index stats with metadata filtering.",
  listOnPod: "List operation is not supported for pod-based indexes. Use a serverless index to list record ids.",
} as const;
