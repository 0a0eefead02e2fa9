#!/usr/bin/env node
// Bundles the server (src/cli.ts) into the bin: dist/vecdb-mcp.js plus lazily loaded chunks in dist/bundle/.
//
//   node scripts/bundle.mjs            (part of `npm run build`, after tsc has type-checked)
//
// Why a bundle: a desktop client starts the server on every launch, and resolving + compiling a few hundred small
// files (the SDK, zod, undici) costs more than reading one. Why chunks: the modules behind dynamic imports — the
// embedded local service with its native storage (lmdb), Parquet (hyparquet), the HTTP transport — become separate
// files that a stdio server talking to a hosted service never reads; the shims below move undici and Ajv out of the
// startup path too. The check after the build fails it if the local service or Parquet is on the startup path, and
// dist/bundle/meta.json keeps the metafile (test/bundle.test.ts reads it). lmdb stays external: a native module with
// per-platform prebuilt packages, the one runtime dependency the bundle still loads from node_modules.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { isBuiltin } from "node:module";
import { createHash } from "node:crypto";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist");
const ENTRY = join(outdir, "vecdb-mcp.js");
const CHUNKS = join(outdir, "bundle");

/** Inputs that must never be on the MCP server's startup path (see `startup` below). */
const LAZY_ONLY = [
  /^src\/local\//,
  /node_modules\/hyparquet\//,
  /node_modules\/hyparquet-writer\//,
  /^src\/ingest\/sources\/parquet\.ts$/,
  /^src\/ingest\/check-worker\.ts$/,
  // import_vectors' file reading (src/ingest/import-file.ts) and the JSON byte readers
  /^src\/ingest\/(file-check|parallel-check|jsonl-encode|upload-input)\.ts$/,
  /^src\/ingest\/sources\/(record-line|jsonl|lines)\.ts$/,
  // the JSON byte readers; float32.ts (the result budget), loopback.ts (the settings' check), identity-proof.ts (the
  // client's identity check), embed-url.ts (the settings check it, a few lines) and linked-abort.ts (every call) are on
  // the startup path
  /^src\/common\/(?!(float32|loopback|identity-proof|embed-url|linked-abort)\.ts$)/,
  // index_documents' file reading, chunking and HTML parsing
  /^src\/ingest\/documents\//,
  /node_modules\/(htmlparser2|yaml)\//,
  // the tool modules, each loaded on its tool's first call (src/mcp/tool-catalog.ts), and the zod → JSON Schema
  // conversion of their schemas, done here at build time instead (toolCatalog below)
  /^tools\/(?!index\.ts$)/,
  /^src\/mcp\/tool-schemas\.ts$/,
  // the API client, made on the first call that needs it (src/main.ts); its errors and redaction are on the path
  /^src\/api\/(?!(errors|redact)\.ts$)/,
  // node:crypto costs a cold start about 8 ms of CPU to load (builtinsByRequire below)
  /^builtin:node:crypto$/,
];

// CommonJS dependencies bundled into ESM (undici, parts of the SDK's deps) call require() for Node built-ins;
// esbuild's ESM output has no require, so each output file gets one. Named so it cannot clash with bundled code.
const banner = [
  'import { createRequire as __vecdbCreateRequire } from "node:module";',
  "const require = __vecdbCreateRequire(import.meta.url);",
].join("\n");

// Substitutions that cut what the server reads and runs before it answers (bench/cold-start.ts measures it); each
// shim in scripts/bundle-shims/ says why it is safe.
const SHIMS = join(root, "scripts", "bundle-shims");
const slimStartup = {
  name: "slim-startup",
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: join(root, "node_modules", "undici", "vecdb-lazy-index.js"), namespace: "shim" }));
    b.onResolve({ filter: /^\.\/vecdb-slim-index\.js$/, namespace: "shim" }, (args) => ({ path: join(args.resolveDir, "vecdb-slim-index.js"), namespace: "shim" }));
    // The SDK v2 server's validator (shimsNode.mjs imports ./ajvProvider-<hash>.mjs): the lazy one instead.
    b.onResolve({ filter: /^\.\/ajvProvider-[\w-]+\.mjs$/ }, (args) =>
      /@modelcontextprotocol[\\/]server[\\/]dist[\\/]shimsNode\.mjs$/.test(args.importer)
        ? { path: join(args.resolveDir, "vecdb-ajv-provider.js"), namespace: "shim", pluginData: { real: args.path } }
        : undefined,
    );
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: join(args.resolveDir, "..", "locales", "vecdb-en-only.js"), namespace: "shim" } : undefined,
    );
    b.onResolve({ filter: /^node:http$/ }, (args) =>
      /src[\\/]api[\\/]http\.ts$/.test(args.importer) ? { path: join(root, "src", "api", "vecdb-node-http.js"), namespace: "shim" } : undefined,
    );
    const sources = {
      "vecdb-lazy-index.js": "undici-lazy.js",
      "vecdb-slim-index.js": "undici.cjs",
      "vecdb-ajv-provider.js": "ajv-provider.js",
      "vecdb-en-only.js": "zod-locales.js",
      "vecdb-node-http.js": "node-http-status.js",
    };
    b.onLoad({ filter: /.*/, namespace: "shim" }, (args) => {
      const name = args.path.split(/[\\/]/).pop();
      // resolveDir: the shim's own imports resolve as if it sat next to the module it replaces.
      let contents = readFileSync(join(SHIMS, sources[name]), "utf8");
      if (args.pluginData?.real) contents = contents.replace("__VECDB_REAL_AJV_PROVIDER__", args.pluginData.real);
      return { contents, resolveDir: dirname(args.path), loader: "js" };
    });
  },
};

// Node's built-in modules through require(), not import: an import statement makes an ES module namespace of the
// built-in, which reads every one of its exports and so runs the getters Node keeps lazy (node:fs's promises,
// node:process's streams, node:crypto's webcrypto…): about 12 ms of CPU in a cold start for nothing used. Through
// require() (the banner's) esbuild reads an export where it is used. A `require()` of a built-in stays as it was.
const builtinsByRequire = {
  name: "builtins-by-require",
  setup(b) {
    b.onResolve({ filter: /^[\w:/]+$/ }, (args) => {
      if (!isBuiltin(args.path) || args.kind !== "import-statement") return undefined;
      return { path: `node:${args.path.replace(/^node:/, "")}`, namespace: "builtin" };
    });
    b.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: "js" }));
  },
};

// What every tool declares (name, description, annotations, JSON Schemas…), written here from the tool modules so that
// the server lists the tools without loading them (src/mcp/tool-catalog.ts). scripts/tool-catalog.mjs is bundled from
// the sources and run (not run on tsc's dist/, which a test's rebuild of a stale bundle does not refresh).
const toolCatalog = await declareTools();
// Named by its content, like the chunks, so that a server spawned during a rebuild reads the catalogue of its own build.
const toolCatalogFile = `tool-catalog-${createHash("sha256").update(toolCatalog).digest("hex").slice(0, 8).toUpperCase()}.json`;

async function declareTools() {
  const dir = mkdtempSync(join(tmpdir(), "vecdb-tool-catalog-"));
  try {
    await build({
      absWorkingDir: root,
      entryPoints: ["scripts/tool-catalog.mjs"],
      outdir: dir,
      bundle: true,
      splitting: true, // keeps the modules' evaluation order (a single file reorders the tools' lazy imports)
      platform: "node",
      format: "esm",
      target: "node20",
      external: ["lmdb"],
      banner: { js: banner },
      logLevel: "warning",
    });
    return execFileSync(process.execPath, [join(dir, "tool-catalog.js")], { cwd: root, encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const result = await build({
  absWorkingDir: root,
  // The parallel import check's worker (src/ingest/parallel-check.ts starts it as ./check-worker.js next to its chunk),
  // and the approximate index's (src/local/search/ann-thread.ts starts ./ann-worker.js the same way).
  entryPoints: { "vecdb-mcp": "src/cli.ts", "bundle/check-worker": "src/ingest/check-worker.ts", "bundle/ann-worker": "src/local/search/ann-worker.ts" },
  outdir,
  entryNames: "[dir]/[name]",
  chunkNames: "bundle/[name]-[hash]",
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  minify: true,
  legalComments: "none",
  external: ["lmdb"],
  plugins: [slimStartup, builtinsByRequire],
  banner: { js: banner },
  define: { __VECDB_TOOL_CATALOG_FILE__: JSON.stringify(`./${toolCatalogFile}`) }, // src/mcp/tool-catalog.ts reads it
  metafile: true,
  write: false,
  logLevel: "warning",
});

// What `vecdb-mcp` (the MCP server, not `serve`) reads before it answers: the entry, the chunk of src/main.ts that
// it imports on that path, and every chunk those import statically.
const outputs = result.metafile.outputs;
const rel = (p) => relative(root, p).split("\\").join("/");
const startup = new Set();
const visit = (out) => {
  if (startup.has(out)) return;
  startup.add(out);
  for (const imp of outputs[out].imports) if (imp.kind === "import-statement" && outputs[imp.path]) visit(imp.path);
};
visit(rel(ENTRY));
const mainChunk = Object.keys(outputs).find((out) => outputs[out].entryPoint === "src/main.ts");
if (!mainChunk) {
  process.stderr.write("bundle: no chunk for src/main.ts (is it still imported lazily by src/cli.ts?)\n");
  process.exit(1);
}
visit(mainChunk);
const offending = [];
for (const out of startup) {
  for (const input of Object.keys(outputs[out].inputs)) {
    if (LAZY_ONLY.some((re) => re.test(input))) offending.push(`${input} (in ${out})`);
  }
}
if (offending.length > 0) {
  process.stderr.write(`bundle: modules that must load lazily are on the startup path:\n  ${offending.join("\n  ")}\n`);
  process.exit(1);
}
// One character past Latin-1 (esbuild escapes them in strings, not in regular expression literals) makes V8 read the
// whole file as two-byte text and scan it more slowly: about 3% of a cold start for the SDK's chunk. Write it \uXXXX.
for (const out of startup) {
  const text = result.outputFiles.find((file) => rel(file.path) === out).text;
  const at = text.search(/[^\x00-\xff]/);
  if (at >= 0) {
    process.stderr.write(`bundle: ${out}, on the startup path, has a character past Latin-1: …${text.slice(Math.max(0, at - 40), at + 10)}… (write it as \\uXXXX)\n`);
    process.exit(1);
  }
}

// Written file by file through a rename, the entry last, so that a server being spawned meanwhile (tests rebuild a
// stale bundle while other test files run) reads either the old bin with its chunks or the new one, never half.
// Chunk names carry a content hash, so old chunks stay valid until they are swept.
mkdirSync(CHUNKS, { recursive: true });
const written = new Set();
const place = (file, contents, mode = 0o644) => {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, contents, { mode });
  renameSync(tmp, file);
  written.add(file);
};
for (const file of result.outputFiles) if (file.path !== ENTRY) place(file.path, file.contents);
place(join(CHUNKS, "meta.json"), JSON.stringify(result.metafile));
place(join(CHUNKS, toolCatalogFile), toolCatalog); // what the server lists (package.json's files ship it)
place(join(CHUNKS, "tool-catalog.json"), toolCatalog); // the same under a fixed name, for test/e2e/tool-catalog.test.ts
place(ENTRY, result.outputFiles.find((file) => file.path === ENTRY).contents, 0o755); // runnable as ./dist/vecdb-mcp.js
// Sweep chunks of earlier builds, once they are old enough that no server just spawned can still be loading them.
for (const name of readdirSync(CHUNKS)) {
  const file = join(CHUNKS, name);
  if (!written.has(file) && Date.now() - statSync(file).mtimeMs > 60_000) rmSync(file, { force: true });
}

const bytes = (out) => outputs[out].bytes;
const startupBytes = [...startup].reduce((n, out) => n + bytes(out), 0);
const total = Object.keys(outputs).reduce((n, out) => n + bytes(out), 0);
process.stderr.write(
  `bundle: ${rel(ENTRY)} — startup ${(startupBytes / 1024).toFixed(0)} KiB in ${startup.size} file(s) ` +
    `and the tools' declarations, ${(Buffer.byteLength(toolCatalog) / 1024).toFixed(0)} KiB of JSON; ` +
    `${(total / 1024).toFixed(0)} KiB in ${Object.keys(outputs).length} file(s) in all\n`,
);
