// `npm run bench [-- NAME…]`: runs the benchmarks (all, or the named ones), one line each with its ratio.
// Each measures against a reference in the same run; scale down with the BENCH_* variables (see bench/README.md).
import { benchColdStart, benchColdStartShared } from "./cold-start.js";
import { benchHttpLoad } from "./http-load.js";
import { benchHttpRss } from "./http-rss.js";
import { benchHttpKill } from "./http-kill.js";
import { benchHttpSoak } from "./http-soak.js";
import { benchHttpHeavy } from "./http-heavy.js";
import { benchHttpProxy } from "./http-proxy.js";
import { benchImport } from "./import.js";
import { benchImportRss } from "./import-rss.js";
import { benchUpsertTool } from "./upsert-tool.js";
import { benchBulkImport } from "./bulk-import.js";
import { benchText } from "./text.js";
import { benchRecordsSearch } from "./records-search.js";
import { benchDocumentsSearch } from "./documents-search.js";
import { benchDocumentsRestart } from "./documents-restart.js";
import { benchDocuments } from "./documents.js";
import { benchLocalSearch } from "./local-search.js";
import { benchApproximate } from "./approximate.js";
import { benchCopyIndex } from "./copy-index.js";
import { benchExport } from "./export.js";

const BENCHMARKS: Record<string, () => Promise<unknown>> = {
  "upsert-tool": benchUpsertTool,
  import: benchImport,
  "import-rss": benchImportRss,
  "cold-start": benchColdStart,
  text: benchText,
  "records-search": benchRecordsSearch,
  "documents-search": benchDocumentsSearch,
  "documents-restart": benchDocumentsRestart,
  documents: benchDocuments,
  "local-search": benchLocalSearch,
  approximate: benchApproximate,
  "http-load": benchHttpLoad,
  "cold-start-shared": benchColdStartShared,
  "bulk-import": benchBulkImport,
  "http-rss": benchHttpRss,
  "copy-index": benchCopyIndex,
  export: benchExport,
  "http-kill": benchHttpKill,
  "http-soak": benchHttpSoak,
  "http-heavy": benchHttpHeavy,
  "http-proxy": benchHttpProxy,
};

const chosen = process.argv.slice(2).filter((a) => !a.startsWith("--")); // options (e.g. http-soak --long) are the benchmarks' own
const unknown = chosen.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown benchmark ${unknown.join(", ")}; choose from ${Object.keys(BENCHMARKS).join(", ")}\n`);
  process.exit(2);
}

let failed = false;
for (const name of chosen.length > 0 ? chosen : Object.keys(BENCHMARKS)) {
  try {
    await BENCHMARKS[name]();
  } catch (err) {
    failed = true;
    process.stdout.write(`${name}: did not run — ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
process.exitCode = failed ? 1 : 0;
