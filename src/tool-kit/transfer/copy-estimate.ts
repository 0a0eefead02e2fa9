// A dry run's estimate of a copy: one page of records read from the source's largest namespace, timed and weighed,
// scaled to all of them. Rough on purpose — the target's speed is not measured (nothing is written) — and said so.
import type { Service } from "../../api/service.js";

const SAMPLE = 100;

export async function estimateCopy(
  service: Service,
  host: string,
  namespaces: { name: string; records: number }[],
  concurrency: number,
  signal: AbortSignal,
): Promise<{ bytes: number; seconds: number }> {
  const records = namespaces.reduce((n, ns) => n + ns.records, 0);
  const largest = [...namespaces].sort((a, b) => b.records - a.records)[0];
  if (largest === undefined || records === 0) return { bytes: 0, seconds: 0 };
  const started = performance.now();
  const page = await service.data.listIds(host, { namespace: largest.name, limit: SAMPLE }, signal);
  const sample = page.ids.length === 0 ? new Map() : await service.data.fetchRecords(host, page.ids, largest.name, signal);
  const readSeconds = (performance.now() - started) / 1000;
  if (sample.size === 0) return { bytes: 0, seconds: 0 };
  let sampleBytes = 0;
  for (const record of sample.values()) sampleBytes += Buffer.byteLength(record.json);
  const perRecordBytes = sampleBytes / sample.size;
  // Reading and writing each take about a read's time; reads and writes overlap, `concurrency` writes at a time.
  const perRecordSeconds = (2 * readSeconds) / sample.size / Math.max(1, Math.min(concurrency, 4));
  return { bytes: Math.round(perRecordBytes * records), seconds: Math.round(perRecordSeconds * records * 10) / 10 };
}
