// The worker thread that holds the approximate indexes' graphs (search/ann-thread.ts starts it): the native library's
// adds take tens of milliseconds a batch and cannot be interrupted, so they run here, off the service's event loop.
// Messages are handled in the order they come, so a search sees every batch sent before it.
import { parentPort } from "node:worker_threads";
import { loadUsearch, type AnnGraph, type AnnLibrary } from "./ann-library.js";
import type { ToWorker } from "./ann-thread.js";

const port = parentPort!;
const graphs = new Map<number, AnnGraph>();
let library: AnnLibrary | undefined;

try {
  library = await loadUsearch();
  port.postMessage({ t: "ready", name: library.name });
} catch (e) {
  port.postMessage({ t: "failed", message: e instanceof Error ? e.message : String(e) });
}

port.on("message", (m: ToWorker) => {
  try {
    switch (m.t) {
      case "create":
        graphs.set(m.id, library!.create(m.options));
        return;
      case "drop":
        graphs.delete(m.id);
        return;
      case "close":
        // between native calls: ending here is safe (ann-thread.ts, close)
        graphs.clear();
        process.exit(0);
      case "update": {
        const graph = graphs.get(m.id);
        const t = performance.now();
        if (graph && m.remove.length > 0) graph.remove(m.remove);
        if (graph && m.keys.length > 0) graph.add(m.keys, m.rows, m.threads);
        port.postMessage({ t: "done", seq: m.seq, ms: performance.now() - t, size: graph?.size() ?? 0 });
        return;
      }
      case "search": {
        const graph = graphs.get(m.id);
        const keys = graph ? graph.search(m.vector, m.k) : new BigUint64Array(0);
        port.postMessage({ t: "done", seq: m.seq, keys });
        return;
      }
    }
  } catch (e) {
    port.postMessage({ t: "error", seq: "seq" in m ? m.seq : -1, message: e instanceof Error ? e.message : String(e) });
  }
});
