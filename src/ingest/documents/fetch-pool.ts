// Fetches ids that keep coming (from a listing, and from a walk that names the files found) in batches of a list
// page, by a few workers, each id once. Whoever adds ids never waits for the fetches: the listing runs on while the
// service answers them.
export class FetchPool {
  private readonly queue: string[] = [];
  private readonly asked = new Set<string>();
  private closed = false;
  private wakers: (() => void)[] = [];
  private readonly workers: Promise<void>[];

  constructor(
    private readonly fetchBatch: (ids: string[]) => Promise<void>,
    workers: number,
    private readonly batch = 100,
  ) {
    this.workers = Array.from({ length: workers }, () => this.work());
    for (const w of this.workers) w.catch(() => {}); // reported by close()
  }

  add(ids: Iterable<string>): void {
    for (const id of ids) {
      if (this.asked.has(id)) continue;
      this.asked.add(id);
      this.queue.push(id);
    }
    this.wake();
  }

  /** No more ids: resolves once every id was fetched, or rejects with the first failure (the other workers stop). */
  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    await Promise.all(this.workers);
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const w of wakers) w();
  }

  private async work(): Promise<void> {
    try {
      for (;;) {
        if (this.queue.length >= this.batch || (this.closed && this.queue.length > 0)) await this.fetchBatch(this.queue.splice(0, this.batch));
        else if (this.closed) return;
        else await new Promise<void>((resolve) => this.wakers.push(resolve));
      }
    } catch (err) {
      this.closed = true; // the others finish what they hold and stop
      this.queue.length = 0;
      this.wake();
      throw err;
    }
  }
}
