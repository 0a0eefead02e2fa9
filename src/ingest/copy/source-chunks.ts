// The records of one namespace of the source, in listing order, a chunk at a time: ids listed a page (100) at a
// time until a chunk has `idsPerChunk` of them, then fetched whole (≤ 1,000 ids a chunk, in requests whose query
// strings stay short). The next chunks are listed and fetched while the caller works on this one, at most `ahead`.
import type { RawRecord } from "../../api/fetch-answer.js";
import type { Service } from "../../api/service.js";

export interface SourceChunk {
  /** The ids listed, in order. */
  ids: string[];
  /** The records fetched, by id, as the source wrote them (an id listed but deleted before the fetch is missing). */
  records: Map<string, RawRecord>;
  /** The pagination token that lists the ids after this chunk; undefined after the last one. */
  next: string | undefined;
}

const LIST_PAGE = 100;

export async function* sourceChunks(
  service: Service,
  host: string,
  namespace: string,
  opts: { startToken?: string; idsPerChunk?: number; ahead?: number; signal?: AbortSignal },
): AsyncGenerator<SourceChunk> {
  const perChunk = opts.idsPerChunk ?? 1000;
  const ahead = Math.max(1, opts.ahead ?? 2);
  let token = opts.startToken;
  let listedAll = false;
  const list = async (): Promise<{ ids: string[]; next: string | undefined }> => {
    const ids: string[] = [];
    do {
      const page = await service.data.listIds(host, { namespace, limit: LIST_PAGE, ...(token !== undefined && { paginationToken: token }) }, opts.signal);
      for (const id of page.ids) ids.push(id);
      token = page.next;
    } while (token !== undefined && ids.length < perChunk);
    if (token === undefined) listedAll = true;
    return { ids, next: token };
  };
  const queue: Promise<SourceChunk>[] = [];
  const fill = async () => {
    while (!listedAll && queue.length < ahead) {
      const listed = await list();
      const fetching = (listed.ids.length === 0 ? Promise.resolve(new Map<string, RawRecord>()) : service.data.fetchRecords(host, listed.ids, namespace, opts.signal)).then(
        (records) => ({ ...listed, records }),
      );
      fetching.catch(() => {}); // awaited in turn below; not an unhandled rejection meanwhile
      queue.push(fetching);
    }
  };
  await fill();
  while (queue.length > 0) {
    const chunk = await queue.shift()!;
    const more = fill();
    more.catch(() => {});
    yield chunk;
    await more;
  }
}
