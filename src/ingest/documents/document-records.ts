// A document's chunks as text records: the id is a stable function of the file's path relative to its allowed
// folder and the chunk's number ("notes/setup.md#3"), so a second run finds last run's records by listing the ids
// that start with the file's (or folder's) path; the metadata says where the text came from and a hash of what was
// written, so a second run sends only what changed.
import { createHash } from "node:crypto";
import type { Chunk } from "./chunks.js";

export interface DocumentRecord {
  id: string;
  text: string;
  metadata: {
    source: string;
    headingPath: string;
    chunk: number;
    /** The file's modification time when this chunk's text was written, in seconds since 1970 (filterable). */
    modified: number;
    contentHash: string;
    /** A hash of the whole file's chunks: one record tells whether the file changed (see sync-documents.ts). */
    fileHash: string;
  };
}

/** Ids are at most 512 characters: a path too long for that is named by its hash ("sha256:…"). */
const MAX_PATH_IN_ID = 480;

export function documentIdPrefix(relativePath: string): string {
  const path = relativePath.split("\\").join("/");
  return [...path].length <= MAX_PATH_IN_ID ? `${path}#` : `sha256:${createHash("sha256").update(path).digest("hex")}#`;
}

/** The file path and chunk number an id names, or undefined for an id this tool did not make. */
export function parseDocumentId(id: string): { prefix: string; chunk: number } | undefined {
  const match = /^(.*#)([1-9][0-9]{0,8})$/s.exec(id);
  return match ? { prefix: match[1], chunk: Number(match[2]) } : undefined;
}

export function contentHash(source: string, chunk: Chunk): string {
  return createHash("sha256").update(`${source}\n${chunk.headingPath}\n${chunk.text}`).digest("hex").slice(0, 32);
}

export function documentRecords(relativePath: string, modifiedMs: number, chunks: readonly Chunk[]): DocumentRecord[] {
  const source = relativePath.split("\\").join("/");
  const prefix = documentIdPrefix(source);
  const hashes = chunks.map((chunk) => contentHash(source, chunk));
  const fileHash = createHash("sha256").update(hashes.join(",")).digest("hex").slice(0, 32);
  return chunks.map((chunk, i) => ({
    id: `${prefix}${i + 1}`,
    text: chunk.text,
    metadata: {
      source,
      headingPath: chunk.headingPath,
      chunk: i + 1,
      modified: Math.floor(modifiedMs / 1000),
      contentHash: hashes[i],
      fileHash,
    },
  }));
}
