// Fetches ids that keep coming (from a listing, and from a walk that names the files found) by a few workers, each id
// once, in batches as large as one request holds (each id weighs what it adds to the request; the run measured that
// fewer, fuller requests matter on a single-threaded service). Whoever adds ids never waits for the fetches.
export class FetchPool {
  private readonly queue: string[] = [];
  private queued = 0; // the weight of the queue
  private readonly asked = new Set<string>();
  private closed = false;
  private wakers: (() => void)[] = [];
  private readonly workers: Promise<void>[];

  constructor(
    private readonly fetchBatch: (ids: string[]) => Promise<void>,
    workers: number,
    /** What one id weighs, and the most a batch may weigh (by default: a count of ids, at most 100). */
    private readonly weigh: (id: string) => number = () => 1,
    private readonly maxWeight = 100,
  ) {
    this.workers = Array.from({ length: workers }, () => this.work());
    for (const w of this.workers) w.catch(() => {}); // reported by close()
  }

  add(ids: Iterable<string>): void {
    for (const id of ids) {
      if (this.asked.has(id)) continue;
      this.asked.add(id);
      this.queue.push(id);
      this.queued += this.weigh(id);
    }
    this.wake();
  }

  /** No more ids: resolves once every id was fetched, or rejects with the first failure (the other workers stop). */
  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    await Promise.all(this.workers);
  }

  /** The next batch: ids from the queue's head while they fit (at least one). */
  private take(): string[] {
    let weight = 0;
    let n = 0;
    while (n < this.queue.length && (n === 0 || weight + this.weigh(this.queue[n]) <= this.maxWeight)) weight += this.weigh(this.queue[n++]);
    this.queued -= weight;
    return this.queue.splice(0, n);
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const w of wakers) w();
  }

  private async work(): Promise<void> {
    try {
      for (;;) {
        if (this.queued >= this.maxWeight || (this.closed && this.queue.length > 0)) await this.fetchBatch(this.take());
        else if (this.closed) return;
        else await new Promise<void>((resolve) => this.wakers.push(resolve));
      }
    } catch (err) {
      this.closed = true; // the others finish what they hold and stop
      this.queue.length = 0;
      this.queued = 0;
      this.wake();
      throw err;
    }
  }
}
