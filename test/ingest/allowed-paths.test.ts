import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveAllowedFile } from "../../src/ingest/allowed-paths.js";

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

describe("resolveAllowedFile", () => {
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
      message: `Refused: ${join(data, "leak.jsonl")} (the relative path was resolved against the first allowed directory, ${data}) is a link that leads outside the allowed directories (to ${join(base, "secret", "key.jsonl")}). ${allowed}`,
    });
    expect(await resolveAllowedFile(join(data, "secret-dir", "key.jsonl"), [data])).toEqual({
      ok: false,
      message: `Refused: ${join(data, "secret-dir", "key.jsonl")} is a link that leads outside the allowed directories (to ${join(base, "secret", "key.jsonl")}). ${allowed}`,
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
        "No directory is allowed for reading files. Start the server with --allow-dir DIR (repeatable) naming the directory that holds your data files, or use an MCP client that declares roots (the folders you opened).",
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
