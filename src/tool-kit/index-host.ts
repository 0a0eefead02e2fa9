// Running a data-plane call on an index's own host: resolve the host (cached), refuse an index that is not ready,
// and when the host has moved or vanished (404 / refused / unknown name), forget it and try the fresh one once.
import { ServiceError } from "../api/errors.js";
import type { IndexModel } from "../api/records.js";
import type { Service } from "../api/service.js";
import type { Untouched } from "./refusal.js";
import { ToolError } from "./tool-error.js";

/** The index resolved to its host; a tool error saying nothing was read or written when it is not ready yet. */
export async function readyIndex(service: Service, index: string, signal: AbortSignal, untouched: Untouched): Promise<IndexModel> {
  const model = await service.hosts.resolve(index, signal);
  if (!model.status.ready) {
    service.hosts.forget(index);
    throw new ToolError({
      problem: `Index ${JSON.stringify(index)} is not ready (state ${model.status.state})`,
      untouched,
      next: "wait a little and call again; list_indexes shows when it is Ready.",
    });
  }
  return model;
}

export async function onIndexHost<T>(
  service: Service,
  index: string,
  signal: AbortSignal,
  call: (model: IndexModel) => Promise<T>,
  check?: (model: IndexModel) => void,
): Promise<T> {
  const ready = () => readyIndex(service, index, signal, "read");
  let model = await ready();
  if (check) {
    try {
      check(model);
    } catch {
      // The cached record may be stale (the index was created again with other settings): judge by a fresh one.
      service.hosts.forget(index);
      model = await ready();
      check(model);
    }
  }
  try {
    return await call(model);
  } catch (err) {
    if (signal.aborted || !hostGone(err)) throw err;
    service.hosts.forget(index);
    const fresh = await ready();
    check?.(fresh);
    return call(fresh);
  }
}

function hostGone(err: unknown): boolean {
  if (!(err instanceof ServiceError)) return false;
  if (err.status === 404) return true;
  // VECDB_IDENTITY: a loopback listener could not prove it is the local service (the index moved; the old port was
  // taken) — the key was not sent, and the fresh host is tried.
  return err.status === undefined && (err.code === "ECONNREFUSED" || err.code === "ENOTFOUND" || err.code === "VECDB_IDENTITY");
}
