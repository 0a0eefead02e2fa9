// Background work (collection copies) tracked by the spaces it reads or writes, so that dropping a
// space, or closing the service, first waits for the work touching it.

export class Jobs {
  private readonly bySpace = new Map<string, Set<Promise<void>>>();

  run(spaces: string[], work: () => Promise<void>, onError: (e: unknown) => void): void {
    const job = work().catch(onError);
    for (const space of spaces) {
      let set = this.bySpace.get(space);
      if (!set) this.bySpace.set(space, (set = new Set()));
      set.add(job);
    }
    void job.finally(() => {
      for (const space of spaces) {
        const set = this.bySpace.get(space);
        set?.delete(job);
        if (set?.size === 0) this.bySpace.delete(space);
      }
    });
  }

  async settled(space: string): Promise<void> {
    await Promise.all([...(this.bySpace.get(space) ?? [])]);
  }

  async all(): Promise<void> {
    const jobs = new Set<Promise<void>>();
    for (const set of this.bySpace.values()) for (const j of set) jobs.add(j);
    await Promise.all(jobs);
  }
}

/** Runs mutations one at a time (each may await commits and port binds in between). */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
