// Compares two heap snapshots (bench/heap-probe.mjs writes them with BENCH_HEAP_SNAPSHOTS set): objects counted by
// type and constructor, the groups that grew the most, in number and in bytes. With `--retainers NAME`, what holds
// the newest objects of that constructor in the second snapshot (their retainer paths, weak edges left out).
//   node bench/heap-diff.mjs early.heapsnapshot late.heapsnapshot [--retainers NAME] [--top 30]
import { readFileSync } from "node:fs";

function load(file) {
  const snap = JSON.parse(readFileSync(file, "utf8"));
  const { node_fields: nf, node_types: nt, edge_fields: ef, edge_types: et } = snap.snapshot.meta;
  return { snap, nf, ef, nodeTypes: nt[0], edgeTypes: et[0], width: nf.length, edgeWidth: ef.length };
}

/** The group of node `i`: strings and code lumped by type, objects and closures by constructor or function name. */
function groupOf(h, i) {
  const { snap, nf, nodeTypes } = h;
  const type = nodeTypes[snap.nodes[i + nf.indexOf("type")]];
  const name = snap.strings[snap.nodes[i + nf.indexOf("name")]];
  if (type === "string" || type === "concatenated string" || type === "sliced string") return "(string)";
  if (type === "code" || type === "hidden" || type === "number") return `(${type})`;
  return `${type}:${name.slice(0, 80)}`;
}

function groups(h) {
  const { snap, nf, width } = h;
  const size = nf.indexOf("self_size");
  const out = new Map();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const key = groupOf(h, i);
    const g = out.get(key) ?? { count: 0, bytes: 0 };
    g.count++;
    g.bytes += snap.nodes[i + size];
    out.set(key, g);
  }
  return out;
}

/** What holds the newest objects of group `name`: the shortest path to each from the GC roots (weak edges left out). */
function retainers(h, name, newerThan, samples = 3) {
  const { snap, nf, ef, width, edgeWidth, edgeTypes } = h;
  const nodeCount = snap.nodes.length / width;
  const edgeCountField = nf.indexOf("edge_count");
  const toField = ef.indexOf("to_node");
  const typeField = ef.indexOf("type");
  const nameField = ef.indexOf("name_or_index");
  const idField = nf.indexOf("id");
  const firstEdge = new Uint32Array(nodeCount + 1);
  for (let n = 0; n < nodeCount; n++) firstEdge[n + 1] = firstEdge[n] + snap.nodes[n * width + edgeCountField] * edgeWidth;
  // Breadth first from the root (node 0): each node's parent on a shortest path, and the edge's label.
  const parent = new Int32Array(nodeCount).fill(-1);
  const via = new Array(nodeCount);
  parent[0] = 0;
  let queue = [0];
  while (queue.length > 0) {
    const next = [];
    for (const n of queue) {
      for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += edgeWidth) {
        const type = edgeTypes[snap.edges[e + typeField]];
        if (type === "weak") continue;
        const to = snap.edges[e + toField] / width;
        if (parent[to] !== -1) continue;
        parent[to] = n;
        via[to] = type === "element" || type === "hidden" ? `[${snap.edges[e + nameField]}]` : String(snap.strings[snap.edges[e + nameField]]);
        next.push(to);
      }
    }
    queue = next;
  }
  const matching = [];
  for (let n = 0; n < nodeCount; n++) if (groupOf(h, n * width) === name) matching.push(n);
  matching.sort((a, b) => snap.nodes[b * width + idField] - snap.nodes[a * width + idField]);
  // The objects made since the first snapshot, tallied by their three nearest holders: where the growth is kept.
  const holders = new Map();
  let fresh = 0;
  for (const n of matching) {
    if (snap.nodes[n * width + idField] <= newerThan || parent[n] === -1) continue;
    fresh++;
    const chain = [];
    for (let at = n, d = 0; at !== 0 && d < 3; at = parent[at], d++) chain.push(`.${via[at].replace(/^\[\d+\]$/, "[]")} of ${groupOf(h, parent[at] * width)}`);
    const key = chain.join(" ← ");
    holders.set(key, (holders.get(key) ?? 0) + 1);
  }
  process.stdout.write(`${fresh} of ${name} made since the first snapshot, by their nearest holders:\n`);
  for (const [key, n] of [...holders].sort((x, y) => y[1] - x[1]).slice(0, 8)) process.stdout.write(`  ${String(n).padStart(7)}  ${key}\n`);
  process.stdout.write(`${matching.length} of ${name}; the path from the GC roots to the ${samples} newest:\n`);
  for (const n of matching.slice(0, samples)) {
    if (parent[n] === -1) {
      process.stdout.write("  (unreachable but for weak edges)\n");
      continue;
    }
    const steps = [];
    for (let at = n; at !== 0; at = parent[at]) steps.push(`.${via[at]} → ${groupOf(h, at * width)}`);
    process.stdout.write(`  ${steps.reverse().join("\n    ")}\n`);
  }
}

const [fileA, fileB, ...rest] = process.argv.slice(2);
if (!fileA || !fileB) {
  process.stderr.write("usage: node bench/heap-diff.mjs early.heapsnapshot late.heapsnapshot [--retainers NAME] [--top N]\n");
  process.exit(2);
}
const top = Number(rest[rest.indexOf("--top") + 1] ?? 30) || 30;
const ha = load(fileA);
const a = groups(ha);
// The newest JavaScript object of the first snapshot (ids grow with allocation; the embedder's native and synthetic
// nodes have ids of their own, out of that sequence).
let lastIdOfA = 0;
for (let i = 0; i < ha.snap.nodes.length; i += ha.width) {
  const type = ha.nodeTypes[ha.snap.nodes[i + ha.nf.indexOf("type")]];
  if (type !== "native" && type !== "synthetic") lastIdOfA = Math.max(lastIdOfA, ha.snap.nodes[i + ha.nf.indexOf("id")]);
}
const hb = load(fileB);
const b = groups(hb);
const diff = [...new Set([...a.keys(), ...b.keys()])].map((key) => {
  const x = a.get(key) ?? { count: 0, bytes: 0 };
  const y = b.get(key) ?? { count: 0, bytes: 0 };
  return { key, count: y.count - x.count, bytes: y.bytes - x.bytes, now: y.count };
});
const show = (title, rows) => {
  process.stdout.write(`${title}\n`);
  for (const r of rows) process.stdout.write(`  ${String(r.count).padStart(8)} objects ${String(r.bytes).padStart(10)} B  (now ${r.now})  ${r.key}\n`);
};
show("grew most in number:", [...diff].sort((x, y) => y.count - x.count).slice(0, top));
show("grew most in bytes:", [...diff].sort((x, y) => y.bytes - x.bytes).slice(0, top));
const at = rest.indexOf("--retainers");
if (at >= 0) retainers(hb, rest[at + 1], lastIdOfA);
