// Reading every record of a namespace, page by page: ids listed in id order (the list endpoint, one page at a time),
// each page fetched whole while the next pages are listed, so a few fetches are in flight and pages come out in order.
import type { DataPlane } from "../../api/data.js";
import type { FetchedRecord } from "../../api/records.js";

/** Ids per list page: the most the hosted service gives in one. */
const PAGE_IDS = 100;

export interface RecordPage {
  records: FetchedRecord[];
  /** Listed, but gone by the time they were fetched (deleted meanwhile). */
  vanished: number;
}

/** The records of `namespace` ("" the default one), a page at a time, in id order; `inFlight` fetches at once. */
export async function* namespaceRecords(
  data: DataPlane,
  host: string,
  namespace: string,
  o: { signal: AbortSignal; inFlight: number },
): AsyncGenerator<RecordPage> {
  const pending: Promise<RecordPage>[] = [];
  let token: string | undefined;
  let listed = false;
  const fetchPage = async (ids: string[]): Promise<RecordPage> => {
    const found = await data.fetchMany(host, ids, namespace, o.signal);
    const records: FetchedRecord[] = [];
    for (const id of ids) if (found[id] !== undefined) records.push(found[id]);
    return { records, vanished: ids.length - records.length };
  };
  try {
    while (!listed || pending.length > 0) {
      while (!listed && pending.length < Math.max(1, o.inFlight)) {
        const page = await data.listIds(host, { namespace, limit: PAGE_IDS, ...(token !== undefined && { paginationToken: token }) }, o.signal);
        token = page.next;
        listed = token === undefined;
        if (page.ids.length > 0) {
          const fetching = fetchPage(page.ids);
          fetching.catch(() => {}); // awaited in turn below; a failure meanwhile must not count as unhandled
          pending.push(fetching);
        }
      }
      const next = pending.shift();
      if (next !== undefined) yield await next;
    }
  } finally {
    pending.length = 0;
  }
}
