// Index name → IndexModel (with its host), cached. Concurrent resolves of one name share one control-plane call.
// Only ready indexes are cached: a not-ready one is asked for again next time.
import type { ControlPlane } from "./control.js";
import type { IndexModel } from "./records.js";
import { raceSignal } from "./abort.js";

export class HostResolver {
  private readonly cache = new Map<string, IndexModel>();
  private readonly pending = new Map<string, Promise<IndexModel>>();

  constructor(
    private readonly control: ControlPlane,
    /** Called with a cached model that is dropped: its host is trusted no more (the key must not follow a stale host). */
    private readonly onForget: (model: IndexModel) => void = () => {},
  ) {}

  resolve(index: string, signal?: AbortSignal): Promise<IndexModel> {
    signal?.throwIfAborted();
    const cached = this.cache.get(index);
    if (cached) return Promise.resolve(cached);
    let shared = this.pending.get(index);
    if (!shared) {
      // The shared call runs without any one caller's signal (it ends by the request timeout); each caller can still
      // stop waiting for it with its own signal.
      shared = this.control.describeIndex(index).then(
        (model) => {
          if (this.pending.get(index) === shared) {
            this.pending.delete(index);
            if (model.status.ready) this.cache.set(index, model);
          }
          return model;
        },
        (err: unknown) => {
          if (this.pending.get(index) === shared) this.pending.delete(index);
          throw err;
        },
      );
      this.pending.set(index, shared);
    }
    return signal
      ? raceSignal(shared, signal, () => {
          throw signal.reason;
        })
      : shared;
  }

  forget(index: string): void {
    const cached = this.cache.get(index);
    this.cache.delete(index);
    this.pending.delete(index);
    if (cached) this.onForget(cached);
  }
}
