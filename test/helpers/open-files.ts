// The readers take an open descriptor (the import opens each file once); tests open their files with this, and the
// descriptors are closed after the file's tests. Call it at a test file's top level (it registers an afterAll).
import { closeSync, openSync } from "node:fs";
import { afterAll, afterEach } from "vitest";

export function descriptorOpener(): (path: string) => { fd: number } {
  const opened: number[] = [];
  afterAll(() => opened.splice(0).forEach((fd) => closeSync(fd)));
  return (path) => {
    const fd = openSync(path, "r");
    opened.push(fd);
    return { fd };
  };
}

/**
 * Sources (anything with close()) a test opened, closed after each test: no FileHandle is left for the garbage
 * collector to close. Call it at a test file's top level; wrap each source as it is opened.
 */
export function closedAfterEach(): <T extends { close(): Promise<unknown> }>(opened: T) => T {
  const open: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((o) => o.close()));
  });
  return (opened) => {
    open.push(opened);
    return opened;
  };
}
