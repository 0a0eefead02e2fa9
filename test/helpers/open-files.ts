// The readers take an open descriptor (the import opens each file once); tests open their files with this, and the
// descriptors are closed after the file's tests. Call it at a test file's top level (it registers an afterAll).
import { closeSync, openSync } from "node:fs";
import { afterAll } from "vitest";

export function descriptorOpener(): (path: string) => { fd: number } {
  const opened: number[] = [];
  afterAll(() => opened.splice(0).forEach((fd) => closeSync(fd)));
  return (path) => {
    const fd = openSync(path, "r");
    opened.push(fd);
    return { fd };
  };
}
