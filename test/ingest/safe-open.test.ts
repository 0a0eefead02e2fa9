import { execFileSync } from "node:child_process";
import { link, mkdir, mkdtemp, readFile, realpath, rename, rm, symlink, truncate, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAllowedFile } from "../../src/common/safe-open.js";
import { readLines, lineText } from "../../src/ingest/sources/lines.js";
import { walkAllowedDir } from "../../src/ingest/walk.js";

/** What openAllowedFile decided, the file closed again. */
async function resolveAllowedFile(path: string, roots: string[]) {
  const opened = await openAllowedFile(path, roots);
  if (!opened.ok) return opened;
  await opened.file.close();
  return { ok: true, realPath: opened.file.realPath };
}

let base: string; // real path of a temp dir holding: data/ (allowed), data2/ and secret/ (not allowed)
let data: string;
let allowed: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "vecdb-paths-")));
  data = join(base, "data");
  await mkdir(join(data, "sub"), { recursive: true });
  await mkdir(join(base, "data2"));
  await mkdir(join(base, "secret"));
  await writeFile(join(data, "a.jsonl"), "{}\n");
  await writeFile(join(data, "sub", "b.parquet"), "PAR1");
  await writeFile(join(base, "data2", "c.jsonl"), "{}\n");
  await writeFile(join(base, "secret", "key.jsonl"), "{}\n");
  await symlink(join(base, "secret", "key.jsonl"), join(data, "leak.jsonl"));
  await symlink(join(base, "secret"), join(data, "secret-dir"));
  await symlink(join(data, "a.jsonl"), join(data, "alias.jsonl"));
  await symlink(data, join(base, "data-link"));
  allowed = `Allowed directories: ${data}.`;
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe("openAllowedFile: which paths", () => {
  it("accepts a file under a root, absolute or relative (resolved against the first root)", async () => {
    expect(await resolveAllowedFile(join(data, "a.jsonl"), [data])).toEqual({ ok: true, realPath: join(data, "a.jsonl") });
    expect(await resolveAllowedFile("sub/b.parquet", [data])).toEqual({ ok: true, realPath: join(data, "sub", "b.parquet") });
    expect(await resolveAllowedFile("sub/../a.jsonl", [data])).toEqual({ ok: true, realPath: join(data, "a.jsonl") });
  });

  it("accepts file:// roots (MCP roots) and roots given through a link; resolves links inside the root", async () => {
    expect(await resolveAllowedFile(join(data, "a.jsonl"), [pathToFileURL(data).href])).toEqual({ ok: true, realPath: join(data, "a.jsonl") });
    expect(await resolveAllowedFile(join(base, "data-link", "a.jsonl"), [join(base, "data-link")])).toEqual({ ok: true, realPath: join(data, "a.jsonl") });
    expect(await resolveAllowedFile(join(data, "a.jsonl"), [join(base, "data-link")])).toEqual({ ok: true, realPath: join(data, "a.jsonl") });
    expect(await resolveAllowedFile("alias.jsonl", [data])).toEqual({ ok: true, realPath: join(data, "a.jsonl") });
    expect(await resolveAllowedFile(join(base, "data2", "c.jsonl"), [data, pathToFileURL(join(base, "data2")).href])).toEqual({
      ok: true,
      realPath: join(base, "data2", "c.jsonl"),
    });
  });

  it("refuses a hard link to a file outside the roots (and any file with another name), not saying where it leads", async () => {
    await link(join(base, "secret", "key.jsonl"), join(data, "hard.jsonl"));
    try {
      expect(await resolveAllowedFile(join(data, "hard.jsonl"), [data])).toEqual({
        ok: false,
        message: `Refused: ${join(data, "hard.jsonl")} has 2 hard links; a file with other names may be one outside the allowed directories. Copy it instead of linking it. ${allowed}`,
      });
    } finally {
      await unlink(join(data, "hard.jsonl"));
    }
  });

  it("a malformed root allows nothing, and does not disable the good ones", async () => {
    expect(await resolveAllowedFile(join(data, "a.jsonl"), ["file://host-name/not/local", data])).toEqual({ ok: true, realPath: join(data, "a.jsonl") });
    expect(await resolveAllowedFile(join(data, "a.jsonl"), ["file://host-name/not/local"])).toEqual({
      ok: false,
      message: 'No allowed root is a usable path ("file://host-name/not/local"). Give absolute directories or file:// URIs.',
    });
  });

  it("refuses .. traversal", async () => {
    expect(await resolveAllowedFile("../secret/key.jsonl", [data])).toEqual({
      ok: false,
      message: `Refused: "../secret/key.jsonl" climbs out of the allowed directories with ".." (it resolves to ${join(base, "secret", "key.jsonl")}). ${allowed}`,
    });
    expect(await resolveAllowedFile(`${data}/sub/../../secret/key.jsonl`, [data])).toMatchObject({ ok: false, message: expect.stringContaining('climbs out of the allowed directories with ".."') });
  });

  it("refuses links that lead outside, to a file or through a directory", async () => {
    expect(await resolveAllowedFile("leak.jsonl", [data])).toEqual({
      ok: false,
      message: `Refused: ${join(data, "leak.jsonl")} (the relative path was resolved against the first allowed directory, ${data}) is a link that leads outside the allowed directories. ${allowed}`,
    });
    expect(await resolveAllowedFile(join(data, "secret-dir", "key.jsonl"), [data])).toEqual({
      ok: false,
      message: `Refused: ${join(data, "secret-dir", "key.jsonl")} is a link that leads outside the allowed directories. ${allowed}`,
    });
  });

  it("refuses absolute paths elsewhere, and the prefix trick /data2 against root /data", async () => {
    expect(await resolveAllowedFile("/etc/passwd", [data])).toEqual({ ok: false, message: `Refused: /etc/passwd is outside the allowed directories. ${allowed}` });
    expect(await resolveAllowedFile(join(base, "data2", "c.jsonl"), [data])).toEqual({
      ok: false,
      message: `Refused: ${join(base, "data2", "c.jsonl")} is outside the allowed directories. ${allowed}`,
    });
  });

  it("refuses a directory and a missing file, each with its own message", async () => {
    expect(await resolveAllowedFile("sub", [data])).toEqual({
      ok: false,
      message: `${join(data, "sub")} is a directory; give the path of a .jsonl or .parquet file inside it. ${allowed}`,
    });
    expect(await resolveAllowedFile(join(data, "nope.jsonl"), [data])).toEqual({ ok: false, message: `No such file: ${join(data, "nope.jsonl")}. ${allowed}` });
    expect(await resolveAllowedFile(join(data, "a.jsonl", "x"), [data])).toEqual({ ok: false, message: `No such file: ${join(data, "a.jsonl", "x")}. ${allowed}` });
  });

  it("with no roots, explains how to allow a directory; names every root otherwise", async () => {
    expect(await resolveAllowedFile(join(data, "a.jsonl"), [])).toEqual({
      ok: false,
      message:
        "No directory is allowed for reading files. Start the server with --allow-dir DIR (repeatable) naming the directory that holds your data files, or use an MCP client over stdio that declares roots (the folders you opened).",
    });
    expect(await resolveAllowedFile("/etc/passwd", [data, pathToFileURL(join(base, "data2")).href])).toEqual({
      ok: false,
      message: `Refused: /etc/passwd is outside the allowed directories. Allowed directories: ${data}, ${join(base, "data2")}.`,
    });
    expect(await resolveAllowedFile(join(data, "a.jsonl"), [join(base, "gone")])).toEqual({
      ok: false,
      message: `None of the allowed directories exists: ${join(base, "gone")}. Create one or allow another with --allow-dir DIR.`,
    });
    expect(await resolveAllowedFile("", [data])).toEqual({ ok: false, message: `The path is empty. Give a file path under an allowed directory. ${allowed}` });
  });
});

describe("openAllowedFile: what is opened", () => {
  it("a FIFO is refused at once, never waited on (a blocking open would hang a thread for good)", async () => {
    const fifo = join(data, "pipe.jsonl");
    execFileSync("mkfifo", [fifo]);
    try {
      const started = Date.now();
      const results = await Promise.all(Array.from({ length: 8 }, () => openAllowedFile(fifo, [data])));
      expect(Date.now() - started).toBeLessThan(2000);
      for (const r of results) expect(r).toEqual({ ok: false, message: `${fifo} is not a regular file. ${allowed}` });
      // the thread pool is free: ordinary file I/O still answers
      expect(await readFile(join(data, "a.jsonl"), "utf8")).toBe("{}\n");
    } finally {
      await unlink(fifo);
    }
  });

  it("reads what was proved, through the descriptor, even when the path is swapped for a link to an outside file afterwards", async () => {
    const path = join(data, "swap.jsonl");
    await writeFile(path, '{"id":"inside"}\n');
    const opened = await openAllowedFile(path, [data]);
    if (!opened.ok) throw new Error(opened.message);
    // the attack: the checked path now leads outside
    await rename(path, join(data, "swap-old.jsonl"));
    await symlink(join(base, "secret", "key.jsonl"), path);
    const lines: (string | undefined)[] = [];
    for await (const line of readLines(opened.file)) lines.push(lineText(line));
    await opened.file.close();
    expect(lines).toEqual(['{"id":"inside"}']);
    // and opening it now is refused
    expect(await resolveAllowedFile(path, [data])).toMatchObject({ ok: false, message: expect.stringContaining("is a link that leads outside the allowed directories") });
    await unlink(path);
    await unlink(join(data, "swap-old.jsonl"));
  });

  it("a sparse file (length far beyond what is stored) is refused", async () => {
    const sparse = join(data, "holes.jsonl");
    await writeFile(sparse, '{"id":"a"}\n');
    await truncate(sparse, 8 * 1024 * 1024 * 1024);
    try {
      const r = await openAllowedFile(sparse, [data]);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.message).toMatch(/^Refused: .*holes\.jsonl is a sparse file \(8589934592 bytes long, but only \d+ bytes are stored on disk\)/);
    } finally {
      await unlink(sparse);
    }
  });

  it("says where the file lies: its real path and the root it was allowed by", async () => {
    const r = await openAllowedFile(join(base, "data-link", "a.jsonl"), [join(base, "data-link")]);
    if (!r.ok) throw new Error(r.message);
    expect({ realPath: r.file.realPath, root: r.file.root, size: r.file.stat.size }).toEqual({ realPath: join(data, "a.jsonl"), root: join(base, "data-link"), size: 3 });
    await r.file.close();
  });
});

describe("walkAllowedDir", () => {
  it("lists files under a root in name order, reports links and other files as skipped, never follows a link", async () => {
    const seen: string[] = [];
    for await (const e of walkAllowedDir(data, [data])) seen.push(e.kind === "file" ? `file ${e.relative}` : `skipped ${e.relative}: ${e.reason}`);
    expect(seen).toEqual([
      "file a.jsonl",
      "skipped alias.jsonl: a symbolic link (links are not followed)",
      "skipped leak.jsonl: a symbolic link (links are not followed)",
      "skipped secret-dir: a symbolic link (links are not followed)",
      "file sub/b.parquet",
    ]);
  });

  it("refuses a folder outside the roots, and keeps to maxDepth and include", async () => {
    await expect(async () => {
      for await (const _ of walkAllowedDir(join(base, "secret"), [data])) void _;
    }).rejects.toThrow(`Refused: ${join(base, "secret")} is outside the allowed directories. ${allowed}`);
    const names: string[] = [];
    for await (const e of walkAllowedDir(data, [data], { maxDepth: 0, include: (n) => n.endsWith(".jsonl") })) names.push(e.relative);
    expect(names).toEqual(["a.jsonl", "alias.jsonl", "leak.jsonl"]);
  });
});
