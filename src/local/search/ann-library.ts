// The native approximate-nearest-neighbour library (usearch's HNSW), loaded only when a namespace first grows past
// the size that needs it: the MCP server and a small local service never read it. It is an optional dependency with
// prebuilt binaries inside the package (linux x64/arm64, macOS); where it is missing or cannot load, the loader
// rejects and search stays exact (search/approximate.ts logs that once).
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Metric } from "./score.js";

/** One HNSW graph over keys (the namespace's slots) and its own quantized copy of their vectors. */
export interface AnnGraph {
  /** Adds vectors (`keys.length` rows of `dimensions` floats, back to back) on `threads` native threads. */
  add(keys: BigUint64Array, vectors: Float32Array, threads: number): void;
  remove(keys: BigUint64Array): void;
  /** Up to k keys nearest to the vector, nearest first. */
  search(vector: Float32Array, k: number): BigUint64Array;
  size(): number;
}

export interface AnnOptions {
  dimensions: number;
  metric: Metric;
  /** How each vector is stored in the graph: i8 (1 byte a dimension), f16 (2) or f32 (4). */
  quantization: "i8" | "f16" | "f32";
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
}

export interface AnnLibrary {
  /** "usearch 2.25.3", for the log. */
  readonly name: string;
  create(options: AnnOptions): AnnGraph;
}

export type AnnLoader = () => Promise<AnnLibrary>;

// The parts of usearch's JavaScript API used here (its CommonJS build: the ESM one of 2.25 cannot find its binary).
interface UsearchIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads: number): void;
  remove(keys: BigUint64Array): number | number[];
  search(vector: Float32Array, k: number, threads: number): { keys: BigUint64Array; distances: Float32Array };
  size(): number;
}
interface UsearchModule {
  Index: new (config: {
    dimensions: number;
    metric: string;
    quantization: string;
    connectivity: number;
    expansion_add: number;
    expansion_search: number;
    multi: boolean;
  }) => UsearchIndex;
}

const METRIC: Record<Metric, string> = { cosine: "cos", dotproduct: "ip", euclidean: "l2sq" };

/** Loads usearch (a name in a variable: the bundler leaves it to Node, which finds it in node_modules). */
export const loadUsearch: AnnLoader = async () => {
  const name = "usearch";
  const require = createRequire(import.meta.url);
  const mod = require(name) as UsearchModule;
  let version = "";
  try {
    // its package.json is not among the package's exports: found from the entry it resolves to
    for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
      const pkg = join(dir, "package.json");
      if (!existsSync(pkg)) continue;
      const parsed = JSON.parse(readFileSync(pkg, "utf8")) as { name?: string; version?: string };
      if (parsed.name !== name) continue;
      version = parsed.version ?? "";
      break;
    }
  } catch {
    // the name alone is enough for the log
  }
  // A first graph proves the binary works on this machine (a missing or broken one throws here, not mid-build).
  new mod.Index({ dimensions: 8, metric: "cos", quantization: "i8", connectivity: 16, expansion_add: 16, expansion_search: 16, multi: false });
  return {
    name: `usearch${version ? ` ${version}` : ""}`,
    create(o: AnnOptions): AnnGraph {
      const index = new mod.Index({
        dimensions: o.dimensions,
        metric: METRIC[o.metric],
        quantization: o.quantization,
        connectivity: o.connectivity,
        expansion_add: o.expansionAdd,
        expansion_search: o.expansionSearch,
        multi: false,
      });
      return {
        add: (keys, vectors, threads) => index.add(keys, vectors, threads),
        remove: (keys) => void index.remove(keys),
        search: (vector, k) => index.search(vector, k, 1).keys, // (only those found: fewer than k when the graph is small)
        size: () => index.size(),
      };
    },
  };
};
