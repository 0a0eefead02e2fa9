// Loaded into the --http server by the http-soak benchmark (NODE_OPTIONS=--import): on SIGUSR2 it collects garbage
// twice and writes the heap in use to stderr as "heap-probe: <bytes>". Nothing else in the server changes.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");
process.on("SIGUSR2", () => {
  gc();
  gc();
  process.stderr.write(`heap-probe: ${process.memoryUsage().heapUsed}\n`);
});
