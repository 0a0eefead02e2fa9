#!/usr/bin/env node
// Packs the built server into an MCP Bundle (vecdb-mcp.mcpb) for one-click install in desktop clients.
//
//   npm run build && node scripts/pack-mcpb.mjs [--out FILE] [--all-platforms] [--keep-stage]
//
// Stages manifest.json + package.json + dist/ (no source maps) + production node_modules in a temporary
// directory and runs `mcpb pack` on it. The local service's storage (lmdb) is a native module: by default the
// bundle carries only this machine's prebuilt binary and the staged manifest says so in
// `compatibility.platforms`. `--all-platforms` (needs the npm registry) adds the prebuilds for macOS, Windows
// and Linux so that one bundle installs everywhere.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PREBUILD_TARGETS = ["darwin-arm64", "darwin-x64", "win32-x64", "linux-x64", "linux-arm64"];

function parseArgs(argv) {
  const args = { out: join(root, "vecdb-mcp.mcpb"), allPlatforms: false, keepStage: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--out" && argv[i + 1]) args.out = resolve(argv[++i]);
    else if (arg === "--all-platforms") args.allPlatforms = true;
    else if (arg === "--keep-stage") args.keepStage = true;
    else fail(`unknown argument ${arg}; usage: pack-mcpb.mjs [--out FILE] [--all-platforms] [--keep-stage]`);
  }
  return args;
}

function fail(message) {
  process.stderr.write(`pack-mcpb: ${message}\n`);
  process.exit(1);
}

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

function run(command, args, cwd) {
  // npm is a .cmd script on Windows, which only a shell can start.
  execFileSync(command, args, { cwd, stdio: ["ignore", "inherit", "inherit"], shell: process.platform === "win32" });
}

function checkSources(manifest, pkg) {
  if (manifest.version !== pkg.version) {
    fail(`manifest.json version ${manifest.version} differs from package.json version ${pkg.version}`);
  }
  const entry = join(root, manifest.server.entry_point);
  if (!existsSync(entry)) fail(`${manifest.server.entry_point} is missing; run \`npm run build\` first`);
}

// dist/ without source maps (they point at sources the bundle does not carry) and without compiled tests.
function copyDist(stage) {
  const dist = join(root, "dist");
  cpSync(dist, join(stage, "dist"), {
    recursive: true,
    filter: (src) => {
      const rel = relative(dist, src).split(sep);
      return !src.endsWith(".map") && rel[0] !== "test" && rel[0] !== "bench";
    },
  });
}

// `npm install` rather than `npm ci`: it follows package-lock.json too, but does not refuse a lock file that lacks
// some other platform's optional prebuilt packages.
function installProduction(stage) {
  run("npm", ["install", "--omit=dev", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"], stage);
}

function addAllPrebuilds(stage) {
  const lmdbVersion = readJson(join(stage, "node_modules", "lmdb", "package.json")).version;
  const packages = PREBUILD_TARGETS.map((target) => `@lmdb/lmdb-${target}@${lmdbVersion}`);
  // --force: npm otherwise refuses packages built for another OS or CPU.
  run("npm", ["install", "--no-save", "--force", "--ignore-scripts", "--omit=dev", "--no-audit", "--no-fund", ...packages], stage);
}

function stagedManifest(manifest, allPlatforms) {
  const platforms = allPlatforms ? ["darwin", "win32", "linux"] : [process.platform];
  return { ...manifest, compatibility: { ...manifest.compatibility, platforms } };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const manifest = readJson(join(root, "manifest.json"));
  const pkg = readJson(join(root, "package.json"));
  checkSources(manifest, pkg);

  const stage = mkdtempSync(join(tmpdir(), "vecdb-mcpb-"));
  try {
    for (const file of ["package.json", "package-lock.json", "README.md", "LICENSE"]) {
      if (existsSync(join(root, file))) cpSync(join(root, file), join(stage, file));
    }
    copyDist(stage);
    installProduction(stage);
    if (args.allPlatforms) addAllPrebuilds(stage);
    writeFileSync(join(stage, "manifest.json"), JSON.stringify(stagedManifest(manifest, args.allPlatforms), null, 2) + "\n");

    rmSync(args.out, { force: true });
    run(join(root, "node_modules", ".bin", "mcpb"), ["pack", stage, args.out], root);
    if (!existsSync(args.out)) fail("mcpb pack did not write the bundle");
    const mb = (statSync(args.out).size / 1e6).toFixed(1);
    process.stderr.write(`pack-mcpb: wrote ${args.out} (${mb} MB)\n`);
  } finally {
    if (args.keepStage) process.stderr.write(`pack-mcpb: stage kept in ${stage}\n`);
    else rmSync(stage, { recursive: true, force: true });
  }
}

main();
