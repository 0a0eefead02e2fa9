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
import { IndexSummary, indexHolds, stateCell, summarizeIndex, where } from "../../src/tool-kit/results/index-summary.js";
import { newNameSchema } from "../../src/tool-kit/args/names.js";
import { ruleError, wholeNumberArg } from "../../src/tool-kit/args/schema.js";
import { waitUntilReady } from "../../src/tool-kit/index-wait.js";
import { defineTool } from "../../src/tool-kit/tool.js";

const UNTOUCHED = "created";
const rule = (text: string) => ruleError(text, { untouched: UNTOUCHED });
/** Without a progress token the wait must end within a client's usual 60 s request timeout; with one, progress keeps it alive. */
const DEFAULT_WAIT_SECONDS = 45;
const DEFAULT_WAIT_WITH_PROGRESS_SECONDS = 180;
/** The placement when none is given: what the hosted service's own MCP server suggests. */
const DEFAULT_PLACEMENT = { cloud: "aws", region: "us-east-1" } as const;

const input = {
  name: newNameSchema(
    "Index",
    'Name of the new index: lower-case letters, digits and "-".',
  ),
  dimension: wholeNumberArg(1, 20_000, rule("the dimension is a whole number from 1 to 20000")).describe("The embedding model's vector length, e.g. 1536."),
  metric: z
    .enum(["cosine", "euclidean", "dotproduct"])
    .optional()
    .describe("Default cosine; dotproduct for hybrid (sparse + dense) records."),
  serverless: z
    .object({
      cloud: z.enum(["aws", "gcp", "azure"]).describe("Cloud provider."),
      region: z.string().min(1).max(64).describe("Region, e.g. us-east-1."),
    })
    .optional()
    .describe("Serverless, scales on demand (neither this nor pod: aws us-east-1)."),
  pod: z
    .object({
      environment: z.string().min(1).max(64).describe("Environment, e.g. us-east1-gcp."),
      podType: z.string().min(1).max(16).describe("e.g. p1.x1."),
      pods: z.number().int().min(1).max(1000).optional().describe("Default replicas × shards."),
      replicas: z.number().int().min(1).max(100).optional().describe("Replicas (default 1)."),
      shards: z.number().int().min(1).max(100).optional().describe("Shards (default 1)."),
      sourceCollection: z.string().min(1).max(45).optional().describe("A collection to fill it from."),
    })
    .optional()
    .describe("Pod-based, on fixed pods; only these make collections."),
  deletionProtection: z
    .enum(["enabled", "disabled"])
    .optional()
    .describe("enabled: cannot be deleted until disabled."),
  tags: z
    .record(z.string().min(1).max(80), z.string().max(120))
    .optional()
    .describe("Labels, e.g. {\"team\": \"search\"}."),
  waitSeconds: z
    .number()
    .int()
    .min(0)
    .max(600)
    .optional()
    .describe(
      `Seconds to wait until ready; default ${DEFAULT_WAIT_SECONDS} (${DEFAULT_WAIT_WITH_PROGRESS_SECONDS} with progress).`,
    ),
};

type Args = z.output<z.ZodObject<typeof input>>;

/** Every setting of the call that the existing index does not have, as "what: the index has X, this call asks for Y". */
function settingDifferences(index: IndexModel, args: Args): string[] {
  const out: string[] = [];
  const differ = (what: string, has: unknown, asked: unknown) => {
    if (asked !== undefined && has !== asked) out.push(`${what}: the index has ${show(has)}, this call asks for ${show(asked)}`);
  };
  if (index.vector_type === "sparse") out.push("vectorType: the index is sparse, create_index makes dense indexes");
  const holds = indexHolds(index);
  if (holds !== "vectors") out.push(`holds: the index holds ${holds}, create_index makes indexes of vectors`);
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
    differ("pod.podType", pod.pod_type, args.pod.podType);
    differ("pod.pods", pod.pods, args.pod.pods);
    differ("pod.replicas", pod.replicas, args.pod.replicas);
    differ("pod.shards", pod.shards, args.pod.shards);
  }
  differ("deletionProtection", index.deletion_protection ?? "disabled", args.deletionProtection);
  for (const [key, value] of Object.entries(args.tags ?? {})) differ(`tags.${key}`, index.tags?.[key], value);
  return out;
}

function show(v: unknown): string {
  return v === undefined || v === null ? "none" : typeof v === "string" ? JSON.stringify(v) : String(v);
}

/** The pod spec in the service's names. */
function podSpec(pod: NonNullable<Args["pod"]>): NonNullable<CreateIndexRequest["spec"]["pod"]> {
  const { podType, sourceCollection, ...rest } = pod;
  return { ...rest, pod_type: podType, ...(sourceCollection !== undefined && { source_collection: sourceCollection }) };
}

function request(args: Args): CreateIndexRequest {
  const body: CreateIndexRequest = {
    name: args.name,
    dimension: args.dimension,
    metric: args.metric ?? "cosine",
    spec: args.serverless ? { serverless: args.serverless } : { pod: podSpec(args.pod!) },
  };
  if (args.deletionProtection) body.deletion_protection = args.deletionProtection;
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
    [[s.name, s.kind, s.dimension, s.metric, stateCell(s), s.host, where(s), s.deletionProtection]],
  );
}

export default defineTool({
  name: "create_index",
  title: "Create index",
  description:
    "Create a dense vector index — serverless (default: aws us-east-1) or pod-based — and wait until it is ready. Use it " +
    "before upsert_vectors when no index fits. The same call again returns the existing index; an existing index with " +
    "other settings is an error listing every difference.",
  inputSchema: input,
  outputSchema: {
    index: IndexSummary.describe("The index as the service describes it after the wait."),
    created: z.boolean().describe("false when an index with these settings already existed and was returned as is."),
    ready: z.boolean().describe("Whether it accepts reads and writes now."),
    waitedSeconds: z.number().describe("Time spent waiting for it to become ready."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  indexArguments: ["name"],
  async run(args, ctx) {
    const { service, signal } = ctx;
    if (args.serverless && args.pod) {
      throw new ToolError({
        problem:
          "Give exactly one of serverless or pod, not both: serverless {cloud, region} makes an index that scales on demand, " +
          "pod {environment, podType} one on fixed pods",
        untouched: UNTOUCHED,
      });
    }
    if (args.pod && service.control.schemaApi) {
      throw new ToolError({
        problem: `Pod-based indexes cannot be created under API version ${ctx.config.apiVersion} (PINECONE_API_VERSION): from 2026-07 the service makes serverless indexes only`,
        untouched: UNTOUCHED,
        next: "create a serverless index, or restart the server with PINECONE_API_VERSION=2026-04 to make a pod-based one.",
      });
    }
    const placedByDefault = !args.serverless && !args.pod;
    if (placedByDefault) args = { ...args, serverless: { ...DEFAULT_PLACEMENT } };
    const limitS = args.waitSeconds ?? (ctx.progressRequested ? DEFAULT_WAIT_WITH_PROGRESS_SECONDS : DEFAULT_WAIT_SECONDS);

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
        throw new ToolError({
          problem: `Index ${JSON.stringify(args.name)} already exists with different settings:\n${differences.map((d) => `- ${d}`).join("\n")}`,
          untouched: "changed",
          next: "use the existing index as it is (list_indexes shows it), or call create_index with another name.",
        });
      }
    }

    // A new index is waited for even when it is ready at once, so that progress always reports the outcome.
    const wait = limitS > 0 && (created || !found.status.ready);
    const waited = wait ? await waitUntilReady(found, limitS, ctx) : { index: found, seconds: 0 };
    const summary = summarizeIndex(waited.index);
    const structured = { index: summary, created, ready: summary.ready, waitedSeconds: waited.seconds };
    const name = JSON.stringify(args.name);
    const head = !created
      ? `Index ${name} already exists with these settings; it is returned as is (nothing was created).`
      : summary.ready
        ? `Index ${name} created${waited.seconds > 0 ? ` and ready after ${waited.seconds} s` : " and ready"}.`
        : limitS === 0
          ? `Index ${name} created; it is ${summary.state} (not waited for: waitSeconds is 0).`
          : `Index ${name} created, but it is still ${summary.state} after ${waited.seconds} s.`;
    const tail = summary.ready
      ? ""
      : "\n\nIt keeps initializing on the service; list_indexes shows when it is Ready. Records can be written once it is.";
    const placed = placedByDefault && created ? "No placement was given: it is serverless on aws us-east-1 (the default). " : "";
    return { structured, table: `${head}\n\n${tableOf(summary)}${tail}`, ...(placed && { note: placed.trim() }) };
  },
});
