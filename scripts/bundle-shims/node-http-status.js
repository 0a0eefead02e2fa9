// src/api/http.ts takes only STATUS_CODES from node:http (for the text of an error without a body). Importing
// node:http loads its server and client and node:net before the server answers; this reads the table on first use.
// If http.ts ever imports more from node:http, the build fails on the missing export instead of misbehaving.
import { createRequire } from "node:module";

const requireBuiltin = createRequire(import.meta.url);
let codes;
export const STATUS_CODES = new Proxy(
  {},
  { get: (_target, key) => (codes ??= requireBuiltin("node:http").STATUS_CODES)[key] },
);
