// create_index — a new dense index, serverless or pod-based, and the wait until it is ready. Checked before any call:
// the name's rules and exactly one of serverless / pod. An index of that name with the same settings is returned as
// is; with other settings the answer lists every difference.
import { z } from "zod";
import { ServiceError } from "../../src/api/errors.js";
import type { CreateIndexRequest } from "../../src/api/control.js";
import type { IndexModel } from "../../src/api/records.js";
import type { Service } from "../../src/api/service.js";
import { ToolError } from "../../src/tool-kit/tool-error.js";
import { markdownTable } from "../../src/tool-kit/format/table.js";
import { IndexSummary, summarizeIndex, where } from "../../src/tool-kit/results/index-summary.js";
import { newNameSchema } from "../../src/tool-kit/args/names.js";
import { ruleError, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { waitUntilReady } from "../../src/tool-kit/index-wait.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const NOTHING = "Nothing was created.";
const rule = (text: string) => ruleError(text, { after: NOTHING });
const DEFAULT_WAIT_SECONDS = 180;

const input = {
  name: newNameSchema(
    "Index",
    'Name of the new index: 1–45 characters, lower-case letters, digits and "-", starting and ending with a letter or digit.',
  ),
  dimension: wholeNumberArg(1, 20_000, rule("the dimension is a whole number from 1 to 20000")).describe("Length of the dense vectors it will hold: the embedding model's output size, e.g. 1536."),
  metric: z
    .enum(["cosine", "euclidean", "dotproduct"])
    .optional()
    .describe("Similarity used by queries: cosine (default), euclidean or dotproduct (needed for sparse-dense hybrid records)."),
  serverless: z
    .object({
      cloud: z.enum(["aws", "gcp", "azure"]).describe("Cloud provider: aws, gcp or azure."),
      region: z.string().min(1).max(64).describe("Region of that cloud, e.g. us-east-1."),
    })
    .optional()
    .describe("Give this OR pod: a serverless index, which scales on demand. Example: {\"cloud\": \"aws\", \"region\": \"us-east-1\"}."),
  pod: z
    .object({
      environment: z.string().min(1).max(64).describe("Environment, e.g. us-east1-gcp."),
      pod_type: z.string().min(1).max(16).describe("Pod type and size, e.g. p1.x1, s1.x2, p2.x4."),
      pods: z.number().int().min(1).max(1000).optional().describe("Number of pods (default replicas × shards)."),
      replicas: z.number().int().min(1).max(100).optional().describe("Replicas (default 1)."),
      shards: z.number().int().min(1).max(100).optional().describe("Shards (default 1)."),
      source_collection: z.string().min(1).max(45).optional().describe("A Ready collection to fill the new index from (its dimension must match)."),
    })
    .optional()
    .describe("Give this OR serverless: a pod-based index on fixed pods (collections can be made only from these)."),
  deletion_protection: z
    .enum(["enabled", "disabled"])
    .optional()
    .describe("enabled: the index cannot be deleted until this is turned off. Default disabled."),
  tags: z
    .record(z.string().min(1).max(80), z.string().max(120))
    .optional()
    .describe("Labels, key → value, e.g. {\"team\": \"search\"}: keys of letters, digits, _ or -; values up to 120 characters."),
  wait_seconds: z
    .number()
    .int()
    .min(0)
    .max(600)
    .optional()
    .describe(`How long to wait for the index to become ready, 0–600 seconds (default ${DEFAULT_WAIT_SECONDS}); 0 returns right after creating.`),
};

type Args = z.output<z.ZodObject<typeof input>>;

/** Every setting of the call that the existing index does not have, as "what: the index has X, this call asks for Y". */
export function settingDifferences(index: IndexModel, args: Args): string[] {
  const out: string[] = [];
  const differ = (what: string, has: unknown, asked: unknown) => {
    if (asked !== undefined && has !== asked) out.push(`${what}: the index has ${show(has)}, this call asks for ${show(asked)}`);
  };
  if (index.vector_type === "sparse") out.push("vector_type: the index is sparse, create_index makes dense indexes");
  differ("dimension", index.dimension ?? undefined, args.dimension);
  differ("metric", index.metric, args.metric ?? "cosine");
  const { serverless, pod } = index.spec;
  const kind = serverless ? "serverless" : pod ? "pod" : "another kind";
  if (args.serverless && !serverless) out.push(`kind: the index is ${kind}, this call asks for serverless`);
  if (args.pod && !pod) out.push(`kind: the index is ${kind}, this call asks for pod`);
  if (args.serverless && serverless) {
    differ("serverless.cloud", serverless.cloud, args.serverless.cloud);
    differ("serverless.region", serverless.region, args.serverless.region);
  }
  if (args.pod && pod) {
    differ("pod.environment", pod.environment, args.pod.environment);
    differ("pod.pod_type", pod.pod_type, args.pod.pod_type);
    differ("pod.pods", pod.pods, args.pod.pods);
    differ("pod.replicas", pod.replicas, args.pod.replicas);
    differ("pod.shards", pod.shards, args.pod.shards);
  }
  differ("deletion_protection", index.deletion_protection ?? "disabled", args.deletion_protection);
  for (const [key, value] of Object.entries(args.tags ?? {})) differ(`tags.${key}`, index.tags?.[key], value);
  return out;
}

function show(v: unknown): string {
  return v === undefined || v === null ? "none" : typeof v === "string" ? JSON.stringify(v) : String(v);
}

function request(args: Args): CreateIndexRequest {
  const body: CreateIndexRequest = {
    name: args.name,
    dimension: args.dimension,
    metric: args.metric ?? "cosine",
    spec: args.serverless ? { serverless: args.serverless } : { pod: args.pod! },
  };
  if (args.deletion_protection) body.deletion_protection = args.deletion_protection;
  if (args.tags) body.tags = args.tags;
  return body;
}

async function existing(service: Service, name: string, signal: AbortSignal): Promise<IndexModel | undefined> {
  try {
    return await service.control.describeIndex(name, signal);
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return undefined;
    throw err;
  }
}

function tableOf(s: IndexSummary): string {
  return markdownTable(
    ["name", "kind", "dimension", "metric", "state", "host", "where", "deletion protection"],
    [[s.name, s.kind, s.dimension, s.metric, `${s.state} (${s.ready ? "ready" : "not ready"})`, s.host, where(s), s.deletion_protection]],
  );
}

export default defineTool({
  name: "create_index",
  title: "Create index",
  description:
    "Create a dense vector index, serverless (give serverless {cloud, region}) or pod-based (give pod {environment, pod_type, …}) — " +
    "exactly one of the two — and wait until it is ready (progress is reported; wait_seconds bounds the wait). Use it before " +
    "upsert_vectors when no index fits (list_indexes shows the ones there are). Calling it again with the same settings returns " +
    "the existing index unchanged; an existing index with other settings is an error that lists every difference. Returns a table " +
    "(name · kind · dimension · metric · state · host · where) and structuredContent.",
  inputSchema: input,
  outputSchema: {
    index: IndexSummary.describe("The index as the service describes it after the wait."),
    created: z.boolean().describe("false when an index with these settings already existed and was returned as is."),
    ready: z.boolean().describe("Whether it accepts reads and writes now."),
    waited_seconds: z.number().describe("Time spent waiting for it to become ready."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  indexArguments: ["name"],
  async run(args, ctx) {
    const { service, signal } = ctx;
    if (args.serverless && args.pod) {
      throw new ToolError(
        "Give exactly one of serverless or pod, not both: serverless {cloud, region} makes an index that scales on demand, " +
          `pod {environment, pod_type} one on fixed pods. ${NOTHING}`,
      );
    }
    if (!args.serverless && !args.pod) {
      throw new ToolError(
        'Give exactly one of serverless or pod; neither was given. For example serverless: {"cloud": "aws", "region": "us-east-1"}, ' +
          `or pod: {"environment": "us-east1-gcp", "pod_type": "p1.x1"}. ${NOTHING}`,
      );
    }
    const limitS = args.wait_seconds ?? DEFAULT_WAIT_SECONDS;

    let found = await existing(service, args.name, signal);
    let created = false;
    if (!found) {
      try {
        found = await service.control.createIndex(request(args), signal);
        created = true;
      } catch (err) {
        // Created by someone else between the describe and the create: judge that one like any existing index.
        if (!(err instanceof ServiceError && err.status === 409)) throw err;
        found = await service.control.describeIndex(args.name, signal);
      }
    }
    if (!created) {
      const differences = settingDifferences(found, args);
      if (differences.length > 0) {
        throw new ToolError(
          `Index ${JSON.stringify(args.name)} already exists with different settings; nothing was created or changed.\n` +
            differences.map((d) => `- ${d}`).join("\n") +
            "\nNext step: use the existing index as it is (list_indexes shows it), or call create_index with another name.",
        );
      }
    }

    // A new index is waited for even when it is ready at once, so that progress always reports the outcome.
    const wait = limitS > 0 && (created || !found.status.ready);
    const waited = wait ? await waitUntilReady(found, limitS, ctx) : { index: found, seconds: 0 };
    const summary = summarizeIndex(waited.index);
    const structured = { index: summary, created, ready: summary.ready, waited_seconds: waited.seconds };
    const name = JSON.stringify(args.name);
    const head = !created
      ? `Index ${name} already exists with these settings; it is returned as is (nothing was created).`
      : summary.ready
        ? `Index ${name} created${waited.seconds > 0 ? ` and ready after ${waited.seconds} s` : " and ready"}.`
        : limitS === 0
          ? `Index ${name} created; it is ${summary.state} (not waited for: wait_seconds is 0).`
          : `Index ${name} created, but it is still ${summary.state} after ${waited.seconds} s.`;
    const tail = summary.ready
      ? ""
      : "\n\nIt keeps initializing on the service; list_indexes shows when it is Ready. Records can be written once it is.";
    return { structured, table: `${head}\n\n${tableOf(summary)}${tail}` };
  },
});
