// copy_index — copy an index's records from one named service to another (or to another index of the same one):
// every namespace or the ones named, each record's id, values, sparse values and metadata; text re-embedded by the
// target's model when it embeds text with another one. Resumable from a checkpoint in the server's data dir; a dry
// run counts and estimates. The work: src/tool-kit/transfer/ (plan, run, dry run) and src/ingest/copy/.
import { z } from "zod";
import { ServiceError } from "../../src/api/errors.js";
import type { IndexModel } from "../../src/api/records.js";
import type { Service } from "../../src/api/service.js";
import { CheckpointStore } from "../../src/ingest/copy/checkpoint.js";
import { ruleError, indexArg, textArg } from "../../src/tool-kit/args/schema.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { formatSeconds } from "../../src/tool-kit/format/duration.js";
import { humanBytes } from "../../src/tool-kit/format/size.js";
import { FRESHNESS_NOTE } from "../../src/tool-kit/hosted-service.js";
import { readyIndex } from "../../src/tool-kit/index-host.js";
import { waitUntilReady } from "../../src/tool-kit/index-wait.js";
import { SERVICE_NAMES, type NamedService } from "../../src/tool-kit/named-services.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { defineTool, type ToolContext } from "../../src/tool-kit/tool.js";
import { copyPlan, type CopyPlan } from "../../src/tool-kit/transfer/copy-plan.js";
import { checkpointFolder, loadCheckpoint, modeKey, namespaceCounts, runCopy, type NamespaceReport } from "../../src/tool-kit/transfer/copy-run.js";
import { estimateCopy } from "../../src/tool-kit/transfer/copy-estimate.js";
import { distinctFailures, failuresField } from "../../src/tool-kit/results/writes.js";
import { namespaceName } from "../../src/common/namespace-name.js";

const RULES = { untouched: "written" } as const;
const rule = (text: string) => ruleError(text, RULES);
const serviceArg = (what: string) =>
  z.enum(SERVICE_NAMES, rule('services are named "main", "local" or "other"')).describe(what);
/** Without a progress token a created index's wait must end within a client's usual 60 s; with one, progress keeps it alive. */
const WAIT_SECONDS = 45;
const WAIT_WITH_PROGRESS_SECONDS = 180;

const NamespaceRow = z.object({
  namespace: z.string().describe('The namespace ("" is the default namespace).'),
  sourceRecords: z.number().int().describe("Records in it on the source when the copy started."),
  copied: z.number().int().describe("Records this call wrote to the target."),
  copiedBefore: z.number().int().describe("Records earlier calls of this copy wrote (from its checkpoint)."),
  alreadyThere: z.number().int().describe("Records the target already held, identical, so not written again (this call and earlier ones)."),
  skipped: z.number().int().describe("Records that cannot be written to the target (e.g. no text to embed), this call and earlier ones."),
  failed: z.number().int().describe("Records this call tried to write that did not land (see failures)."),
  complete: z.boolean().describe("Every record of the namespace is on the target (or skipped, with the reason)."),
});

const Outcome = {
  from: z.string().describe('The source service\'s name ("main", "local" or "other").'),
  fromService: z.string().describe("Where the source service is."),
  to: z.string().describe("The target service's name."),
  toService: z.string().describe("Where the target service is."),
  index: z.string().describe("The source index."),
  targetIndex: z.string().describe("The target index."),
  how: z.string().describe("How the records are written: as they are, or re-embedded by the target's model."),
  dryRun: z.boolean().describe("True when only counted and estimated (nothing created or written)."),
  targetCreated: z.boolean().describe("True when this call created the target index."),
  resumed: z.boolean().describe("True when this call went on from where an earlier one stopped."),
  complete: z.boolean().describe("Every record of every namespace asked for is on the target (or skipped)."),
  namespaces: z.array(NamespaceRow).describe("One row per namespace copied."),
  records: z.number().int().describe("Records in those namespaces on the source."),
  estimatedBytes: z.number().int().optional().describe("Dry run: about how many bytes the records take as the API sends them."),
  estimatedSeconds: z.number().optional().describe("Dry run: a rough estimate of the copy's time (the target's embedding not counted)."),
  skippedExamples: z.array(z.object({ id: z.string(), why: z.string() })).describe("The first records skipped, with why."),
  failures: failuresField("One entry per distinct reason records did not land in this call."),
  seconds: z.number().describe("Wall-clock time of the call."),
};
type Structured = z.output<z.ZodObject<typeof Outcome>>;

async function describeOrMissing(service: Service, index: string, signal: AbortSignal): Promise<IndexModel | undefined> {
  try {
    return await service.control.describeIndex(index, signal);
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return undefined;
    throw err;
  }
}

/** Creates the target the plan asks for and waits until it is ready; the ToolError says when it did not get ready in time. */
async function createTarget(plan: CopyPlan, to: NamedService, ctx: ToolContext): Promise<IndexModel> {
  const create = plan.create!;
  const made = create.kind === "index" ? await to.service.control.createIndex(create.body, ctx.signal) : await to.service.control.createIndexForModel(create.body, ctx.signal);
  const limit = ctx.progressRequested ? WAIT_WITH_PROGRESS_SECONDS : WAIT_SECONDS;
  const { index, seconds } = await waitUntilReady(made, limit, { ...ctx, service: to.service });
  if (!index.status.ready) {
    throw new ToolError({
      problem: `The target index ${JSON.stringify(index.name)} was created on ${to.where} but is not ready after ${seconds} s (state ${index.status.state}); no record was copied yet`,
      untouched: false,
      next: "call copy_index again in a little while with the same arguments (without createTarget, or with it: an existing target is used as it is).",
    });
  }
  return index;
}

function rows(reports: NamespaceReport[]): Structured["namespaces"] {
  return reports.map((r) => {
    const o = r.outcome;
    return {
      namespace: r.namespace,
      sourceRecords: r.sourceRecords,
      copied: o?.copied ?? 0,
      copiedBefore: r.before.copied,
      alreadyThere: r.before.alreadyThere + (o?.alreadyThere ?? 0),
      skipped: r.before.skipped + (o?.skippedCount ?? 0),
      failed: o ? o.failures.reduce((n, f) => n + f.ids.length, 0) : 0,
      complete: r.complete,
    };
  });
}

const HEADERS = ["namespace", "source records", "copied now", "copied before", "already there", "skipped", "failed", "complete"];
const tableOf = (s: Structured) =>
  markdownTable(
    HEADERS,
    s.namespaces.map((n) => [namespaceName(n.namespace), n.sourceRecords, n.copied, n.copiedBefore, n.alreadyThere, n.skipped, n.failed, n.complete ? "yes" : "no"]),
  );

function heading(s: Structured): string {
  return `${s.dryRun ? "Dry run: copy" : "Copy"} of index ${JSON.stringify(s.index)} on ${s.fromService} (${s.from}) to ${JSON.stringify(s.targetIndex)} on ${s.toService} (${s.to}); records written ${s.how}.`;
}

export default defineTool({
  name: "copy_index",
  title: "Copy an index to another service",
  description:
    'Copy an index\'s records to another service ("main", "local", "other") or index, re-embedding text for a target ' +
    "with another model. Resumable: call again after a stop.",
  inputSchema: {
    from: serviceArg('Source service (default "main").').optional(),
    to: serviceArg("Target service."),
    index: indexArg("Index to copy.", RULES),
    targetIndex: indexArg("Default: the same name.", RULES).optional(),
    namespaces: z
      .array(textArg(0, 512, rule("namespaces are at most 512 characters")))
      .min(1, rule("name at least one namespace, or leave namespaces out for all"))
      .max(1000, rule("name at most 1000 namespaces"))
      .optional()
      .describe("Default: all."),
    createTarget: z.boolean().optional().describe("Create a missing target like the source, or with targetModel."),
    targetModel: textArg(1, 200, rule("model names are 1–200 characters")).optional().describe("Model for a created target (re-embeds the text)."),
    dryRun: z.boolean().optional().describe("Only count and estimate."),
  },
  outputSchema: Outcome,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  indexArguments: ["targetIndex"],
  async run(args, ctx) {
    const started = performance.now();
    const { signal } = ctx;
    const { index, createTarget: create = false, dryRun = false } = args;
    const targetIndex = args.targetIndex ?? index;
    if (!ctx.services) throw new ToolError({ problem: "copy_index needs the server's named services, which this call does not have", untouched: "written" });
    const from = await ctx.services.get(args.from ?? "main", signal);
    const to = await ctx.services.get(args.to, signal);
    if (from.key === to.key && index === targetIndex) {
      throw new ToolError({
        problem: `The source and the target are the same index: ${JSON.stringify(index)} on ${from.where} ("${from.name}" and "${to.name}" name the same service)`,
        untouched: "written",
        next: "name another targetIndex, or another service in to.",
      });
    }
    const source = await readyIndex(from.service, index, signal, "written");
    let target = await describeOrMissing(to.service, targetIndex, signal);
    const plan = copyPlan(source, target, { index, targetIndex, createTarget: create, targetModel: args.targetModel });

    const counts = await namespaceCounts(from.service, source.host, signal);
    const wanted = args.namespaces ? [...new Set(args.namespaces)] : [...counts.keys()].sort();
    const missing = wanted.filter((n) => !counts.has(n));
    if (missing.length > 0) {
      throw new ToolError({
        problem: `Index ${JSON.stringify(index)} on ${from.where} has no namespace ${missing.map((n) => JSON.stringify(n)).join(", ")} holding records`,
        untouched: "written",
        next: "list_namespaces shows its namespaces; call again with those, or leave namespaces out for all.",
      });
    }
    const namespaces = wanted.map((name) => ({ name, records: counts.get(name) ?? 0 }));
    const records = namespaces.reduce((n, ns) => n + ns.records, 0);
    const base = {
      from: from.name,
      fromService: from.where,
      to: to.name,
      toService: to.where,
      index,
      targetIndex,
      how: plan.how,
      records,
      skippedExamples: [],
      failures: [],
    };

    const store = new CheckpointStore(checkpointFolder(ctx.config.dataDir), { from: { service: from.key, index }, to: { service: to.key, index: targetIndex } });
    const fresh = { version: 1 as const, from: { service: from.key, index }, to: { service: to.key, index: targetIndex }, mode: modeKey(plan.mode), namespaces: {} };
    const loaded = await loadCheckpoint(store, fresh);

    if (dryRun) {
      const estimate = await estimateCopy(from.service, source.host, namespaces, ctx.config.concurrency, signal);
      const structured: Structured = {
        ...base,
        dryRun: true,
        targetCreated: false,
        resumed: loaded.resumed,
        complete: false,
        namespaces: namespaces.map((ns) => {
          const m = loaded.checkpoint.namespaces[ns.name];
          return { namespace: ns.name, sourceRecords: ns.records, copied: 0, copiedBefore: m?.copied ?? 0, alreadyThere: m?.alreadyThere ?? 0, skipped: m?.skipped ?? 0, failed: 0, complete: m?.done ?? false };
        }),
        estimatedBytes: estimate.bytes,
        estimatedSeconds: estimate.seconds,
        seconds: (performance.now() - started) / 1000,
      };
      const lines = [
        heading(structured),
        tableOf(structured),
        `${records} records, about ${humanBytes(estimate.bytes)} as the API sends them; a rough estimate of the time: ${formatSeconds(estimate.seconds)}${plan.mode.kind === "text" ? ", plus the target's embedding of the text" : ""}.`,
        target === undefined ? `The target index does not exist yet; the copy will create it${plan.create?.kind === "model" ? ` with the model ${JSON.stringify(plan.create.body.embed.model)}` : " like the source"}.` : "",
        loaded.resumed ? "An earlier call of this copy stopped: the copy goes on from where it was (the table's \"copied before\")." : "",
        "Nothing was created or written.",
      ];
      return { structured, table: lines.filter(Boolean).join("\n\n") };
    }

    let targetCreated = false;
    if (target === undefined) {
      target = await createTarget(plan, to, ctx);
      targetCreated = true;
    }
    const ready = await readyIndex(to.service, targetIndex, signal, "written");
    const targetCounts = targetCreated ? new Map<string, number>() : await namespaceCounts(to.service, ready.host, signal);
    const run = await runCopy(
      { from, to, index, targetIndex, sourceHost: source.host, targetHost: ready.host, mode: plan.mode, namespaces, targetCounts, store, checkpoint: loaded.checkpoint },
      ctx,
    );
    signal.throwIfAborted(); // cancelled: the checkpoint is saved; the client reads no answer
    const allFailures = run.reports.flatMap((r) => r.outcome?.failures ?? []);
    const skippedExamples = run.reports.flatMap((r) => r.outcome?.skipped ?? []).slice(0, 20);
    const structured: Structured = {
      ...base,
      dryRun: false,
      targetCreated,
      resumed: loaded.resumed,
      complete: run.complete,
      namespaces: rows(run.reports),
      skippedExamples,
      failures: distinctFailures(allFailures),
      seconds: Math.round(performance.now() - started) / 1000,
    };
    const vanished = run.reports.reduce((n, r) => n + (r.outcome?.vanished ?? 0), 0);
    const readErrors = run.reports.flatMap((r) => (r.outcome?.readError ? [`namespace ${namespaceName(r.namespace)}: ${r.outcome.readError}`] : []));
    const lines = [
      heading(structured),
      targetCreated ? `The target index was created (${plan.create?.kind === "model" ? `model ${JSON.stringify(plan.create.body.embed.model)}` : `dimension ${String(source.dimension)}, metric ${source.metric}`}).` : "",
      tableOf(structured),
      loaded.note ? `Note: ${loaded.note}.` : "",
      structured.failures.length > 0 ? `Not landed:\n${structured.failures.map((f) => `- ${f.records} records: ${f.message}`).join("\n")}` : "",
      readErrors.length > 0 ? `The source could not be read further:\n${readErrors.map((e) => `- ${e}`).join("\n")}` : "",
      skippedExamples.length > 0 ? `Skipped:\n${skippedExamples.map((s) => `- ${JSON.stringify(s.id)} ${s.why}`).join("\n")}` : "",
      vanished > 0 ? `${vanished} records were listed on the source but deleted from it before they could be read; they were not copied.` : "",
      run.saveProblem ? `Warning: ${run.saveProblem}; a copy that stops now starts its namespace over (finding what landed already there).` : "",
    ];
    const table = lines.filter(Boolean).join("\n\n");
    if (run.complete) {
      const hosted = /(^|\.)pinecone\.io$/.test(new URL(to.service.origin).hostname);
      return { structured, table, ...(hosted && { note: FRESHNESS_NOTE }) };
    }
    const why = ctx.stopping?.aborted ? "The server stopped the copy (shutting down, or the session was closed)." : "The copy stopped before every record landed.";
    return {
      structured,
      table,
      isError: structured.failures.length > 0 || readErrors.length > 0,
      note: `${why} Next step: call copy_index again with the same arguments; it goes on from where it stopped (records already on the target are not written again).`,
    };
  },
});
