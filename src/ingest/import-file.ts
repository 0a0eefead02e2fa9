// The file-reading half of the ingest path, in one module so that import_vectors can load it on its first call:
// the JSONL readers, the check pass and its workers stay off the server's startup path (bench/cold-start.ts).
export { checkFile } from "./file-check.js";
export { openSource, PositionMap } from "./sources/index.js";
export { uploadInput } from "./upload-input.js";
