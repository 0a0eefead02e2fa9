// A document's chunks as text records. Ids are a stable function of the file's path — its allowed folder's name, then
// the path under it (find-documents.ts) — and the chunk's number: chunk 3 of notes/setup.md is "notes/setup.md#3",
// and the first chunk carries a leading "/" ("/notes/setup.md#1"). No relative path starts with "/", so listing "/notes/" returns the first chunks of the
// folder's files and nothing else: a re-run learns which files the index holds from one id in 13 (20 pages for 2,000
// files instead of 260), and each first chunk's metadata says how many chunks its file has and which version they hold.
// The metadata says where the text came from and a hash of what was written, so a run sends only what changed.
import { createHash } from "node:crypto";
import type { Chunk } from "./chunks.js";
import type { MetadataValue } from "./front-matter.js";

/** Bumped when chunking changes the chunks of unchanged text: first chunks of older runs then no longer match. */
const CHUNKING_VERSION = 1;

export interface ChunkMetadata {
  source: string;
  headingPath: string;
  chunk: number;
  /** The file's modification time when this chunk's text was written, in seconds since 1970 (filterable). */
  modified: number;
  contentHash: string;
  /** A hash of the whole file's chunks: the first chunk's says which version of the file the index holds. */
  fileHash: string;
}

/**
 * What the first chunk alone records about its file, so that a re-run can tell an unchanged file without reading it:
 * the chunk count and the size and modification time the file had when it was read, with the chunking settings.
 */
export interface FileStamp {
  chunks: number;
  fileBytes: number;
  /** Milliseconds since 1970; -1 when the file had changed less than RACY_MS before it was read (see fileStamp). */
  modifiedMs: number;
  /** "version:size/overlap" of the chunking that cut the file. */
  chunking: string;
}

export interface DocumentRecord {
  id: string;
  text: string;
  metadata: ChunkMetadata & Partial<FileStamp> & Record<string, MetadataValue | undefined>;
}

/** Metadata keys this tool writes itself: a front matter key among them is stored under another name. */
export const OWN_FIELDS: ReadonlySet<string> = new Set(["_id", "source", "headingPath", "chunk", "modified", "contentHash", "fileHash", "chunks", "fileBytes", "modifiedMs", "chunking"]);

/**
 * A file modified this recently is read again by the next run even when its size and time still match: a file
 * system whose clock ticks coarsely (1 s, FAT's 2 s, a kernel tick) could give a second edit made in the same tick
 * the same time.
 */
export const RACY_MS = 2000;

export function chunkingOf(sizes: { size: number; overlap: number }): string {
  return `${CHUNKING_VERSION}:${sizes.size}/${sizes.overlap}`;
}

/** The stamp a file gets from its stat taken when it was read, at `readAtMs`. */
export function fileStamp(stat: { size: number; mtimeMs: number }, readAtMs: number, chunks: number, chunking: string): FileStamp {
  const racy = readAtMs - stat.mtimeMs < RACY_MS;
  return { chunks, fileBytes: stat.size, modifiedMs: racy ? -1 : stat.mtimeMs, chunking };
}

/** Ids are at most 512 characters: a path too long for that is named by its hash ("sha256:…"). */
const MAX_PATH_IN_ID = 480;

/** The part of every chunk id of a file before the chunk number: "notes/setup.md#". */
export function documentIdPrefix(relativePath: string): string {
  const path = relativePath.split("\\").join("/");
  // Counted in code points; a path no longer than that in UTF-16 units is short enough without counting.
  return path.length <= MAX_PATH_IN_ID || [...path].length <= MAX_PATH_IN_ID ? `${path}#` : `sha256:${createHash("sha256").update(path).digest("hex")}#`;
}

/** The id of chunk `chunk` of the file whose id prefix is `prefix`. */
export function chunkId(prefix: string, chunk: number): string {
  return chunk === 1 ? `/${prefix}1` : `${prefix}${chunk}`;
}

/** Where the first chunks of the files under a scope prefix ("notes/", or a file's "notes/a.md#") are listed. */
export function firstChunksPrefix(scopePrefix: string): string {
  return `/${scopePrefix}`;
}

/**
 * The file prefix and chunk number an id names, or undefined for an id this tool did not make. `first` is true for a
 * first chunk in the current layout; an id "path#1" without the "/" is a first chunk of the earlier layout (a stray).
 */
export function parseDocumentId(id: string): { prefix: string; chunk: number; first: boolean } | undefined {
  const first = id.startsWith("/");
  const match = /^(.*#)([1-9][0-9]{0,8})$/s.exec(first ? id.slice(1) : id);
  if (!match) return undefined;
  const chunk = Number(match[2]);
  if (first && chunk !== 1) return undefined;
  return { prefix: match[1], chunk, first };
}

/** The front matter takes part only when there is some: chunks of files without it keep the hashes they had. */
export function contentHash(source: string, chunk: Chunk, frontMatter: Readonly<Record<string, MetadataValue>> = {}): string {
  const extra = Object.keys(frontMatter).length > 0 ? `\n${JSON.stringify(frontMatter)}` : "";
  return createHash("sha256").update(`${source}\n${chunk.headingPath}\n${chunk.text}${extra}`).digest("hex").slice(0, 32);
}

/** The records of a file's chunks; the first one carries the file's stamp (chunk count, size, time, chunking). */
export function documentRecords(
  relativePath: string,
  stat: { size: number; mtimeMs: number },
  readAtMs: number,
  chunks: readonly Chunk[],
  chunking: string,
  frontMatter: Readonly<Record<string, MetadataValue>> = {},
): DocumentRecord[] {
  const source = relativePath.split("\\").join("/");
  const prefix = documentIdPrefix(source);
  const hashes = chunks.map((chunk) => contentHash(source, chunk, frontMatter));
  const fileHash = createHash("sha256").update(hashes.join(",")).digest("hex").slice(0, 32);
  const stamp = fileStamp(stat, readAtMs, chunks.length, chunking);
  return chunks.map((chunk, i) => ({
    id: chunkId(prefix, i + 1),
    text: chunk.text,
    metadata: {
      ...frontMatter,
      source,
      headingPath: chunk.headingPath,
      chunk: i + 1,
      modified: Math.floor(stat.mtimeMs / 1000),
      contentHash: hashes[i],
      fileHash,
      ...(i === 0 ? stamp : {}),
    },
  }));
}
