// An export: every record of the chosen namespaces of one index, written into a new folder in the layout the hosted
// service's bulk import reads — one sub-folder per namespace ("__default__" for the default one) holding numbered
// files (part-00000.parquet, … or .jsonl). A file is complete or absent: one that a stop interrupts is removed, and
// the outcome lists every complete file, so what is on disk is exactly what the result says.
import { unlink } from "node:fs/promises";
import type { DataPlane } from "../../api/data.js";
import { namespaceName } from "../../common/namespace-name.js";
import { namespaceRecords } from "./index-records.js";
import { JsonlRecordsFile } from "./jsonl-file.js";
import { ParquetRecordsFile } from "./parquet-file.js";
import { createNewFile, createSubfolder, type ExportFolder } from "./safe-create.js";

export type ExportFormat = "parquet" | "jsonl";

export interface ExportedFile {
  namespace: string;
  path: string;
  records: number;
  bytes: number;
}

export interface ExportOutcome {
  files: ExportedFile[];
  /** Records written, per namespace ("" the default one). */
  records: Map<string, number>;
  /** Records listed but deleted before they could be fetched. */
  vanished: number;
  /** Why the export stopped before the end, when it did. */
  stopped?: string;
  /** The namespace it stopped in. */
  stoppedIn?: string;
}

/** Why a namespace's name cannot be a folder's name, or undefined when it can. */
export function folderNameProblem(namespace: string): string | undefined {
  const name = namespaceName(namespace);
  if (/[/\\\u0000]/.test(name)) return "holds a / or \\ (or NUL), which a folder's name cannot";
  if (name === "." || name === "..") return `is "${name}", which a folder's name cannot be`;
  if (Buffer.byteLength(name) > 255) return "is longer than the 255 bytes of a folder's name";
  return undefined;
}

export async function runExport(o: {
  data: DataPlane;
  host: string;
  folder: ExportFolder;
  namespaces: readonly string[];
  format: ExportFormat;
  /** JSONL: upsert_records lines (_id and the fields), for an index that embeds text. */
  textRecords: boolean;
  recordsPerFile: number;
  inFlight: number;
  signal: AbortSignal;
  stopping?: AbortSignal;
  onProgress(done: number): void;
}): Promise<ExportOutcome> {
  const out: ExportOutcome = { files: [], records: new Map(), vanished: 0 };
  let done = 0;
  let current: { path: string; close(): Promise<void> } | undefined;
  let namespace = "";
  try {
    for (namespace of o.namespaces) {
      out.records.set(namespace, 0);
      const folder = await createSubfolder(o.folder, namespaceName(namespace));
      let file: { writer: ParquetRecordsFile | JsonlRecordsFile; path: string; records: number; handle: import("node:fs/promises").FileHandle } | undefined;
      const finishFile = async () => {
        if (file === undefined) return;
        await file.writer.finish();
        const { size } = await file.handle.stat();
        await file.handle.close();
        out.files.push({ namespace, path: file.path, records: file.records, bytes: size });
        current = undefined;
        file = undefined;
      };
      for await (const page of namespaceRecords(o.data, o.host, namespace, { signal: o.signal, inFlight: o.inFlight })) {
        out.vanished += page.vanished;
        let records = page.records;
        while (records.length > 0) {
          if (file === undefined) {
            const name = `part-${String(out.files.filter((f) => f.namespace === namespace).length).padStart(5, "0")}.${o.format}`;
            const { handle, path } = await createNewFile(folder, name);
            current = { path, close: () => handle.close() };
            file = { writer: o.format === "parquet" ? new ParquetRecordsFile(handle) : new JsonlRecordsFile(handle, o.textRecords), path, records: 0, handle };
          }
          const room = o.recordsPerFile - file.records;
          const part = records.slice(0, room);
          records = records.slice(part.length);
          await file.writer.write(part);
          file.records += part.length;
          done += part.length;
          out.records.set(namespace, (out.records.get(namespace) ?? 0) + part.length);
          if (file.records >= o.recordsPerFile) await finishFile();
        }
        o.onProgress(done);
        if (o.stopping?.aborted) throw new Error("the server stopped the call (shutting down, or the session was closed)");
      }
      await finishFile();
    }
    return out;
  } catch (err) {
    if (current !== undefined) {
      // The file being written is incomplete: removed, so that every file left is one the result lists.
      const { path } = current;
      await current.close().catch(() => {});
      await unlink(path).catch(() => {});
      const count = out.records.get(namespace) ?? 0;
      const inFiles = out.files.filter((f) => f.namespace === namespace).reduce((n, f) => n + f.records, 0);
      out.records.set(namespace, inFiles);
      done -= count - inFiles;
    }
    out.stopped = o.signal.aborted ? "the call was cancelled" : err instanceof Error ? err.message : String(err);
    out.stoppedIn = namespace;
    return out;
  }
}
