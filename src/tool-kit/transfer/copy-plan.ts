// How a copy writes, decided from the two indexes before anything is read: the records as they are (ids, values,
// sparse values, metadata), or — when the target embeds text with another model than the source (or the source
// embeds none) — as text records the target's model embeds again. And the refusals: an index onto itself, a
// dimension or vector type the target cannot hold, a target that is missing and not to be created.
import type { CreateIndexForModelRequest, CreateIndexRequest } from "../../api/control.js";
import type { IndexModel } from "../../api/records.js";
import type { CopyMode } from "../../ingest/copy/copy-namespace.js";
import { textField } from "../../ingest/text-records.js";
import { ToolError } from "../tool-error.js";

export interface CopyRequest {
  index: string;
  targetIndex: string;
  /** Create the target when it does not exist. */
  createTarget: boolean;
  /** The model a created target embeds text with (create-for-model); must be the target's when it exists. */
  targetModel?: string;
}

type TargetCreation = { kind: "index"; body: CreateIndexRequest } | { kind: "model"; body: CreateIndexForModelRequest };

export interface CopyPlan {
  mode: CopyMode;
  /** The target to create first, when it does not exist. */
  create?: TargetCreation;
  /** How the records are written, in words ("as they are", "re-embedded by … from the field …"). */
  how: string;
}

const q = JSON.stringify;

/** Where a created target lives: the source's serverless placement, else the hosted service's usual default. */
function placement(source: IndexModel): { cloud: string; region: string } {
  const s = source.spec.serverless;
  return s ? { cloud: s.cloud, region: s.region } : { cloud: "aws", region: "us-east-1" };
}

export function copyPlan(source: IndexModel, target: IndexModel | undefined, req: CopyRequest): CopyPlan {
  if (target === undefined) return creationPlan(source, req);
  const targetModel = target.embed?.model;
  if (req.targetModel !== undefined && req.targetModel !== targetModel) {
    throw new ToolError({
      problem: `targetModel is ${q(req.targetModel)}, but the target index ${q(target.name)} exists and ${targetModel ? `embeds with ${q(targetModel)}` : "embeds no text"}; a model is chosen only for a target this call creates`,
      next: "leave targetModel out to copy into the existing index, or name a new targetIndex with createTarget: true.",
    });
  }
  const targetField = textField(target);
  if (targetField !== undefined && targetModel !== source.embed?.model) return textPlan(source, targetField, targetModel!);
  const sourceSparse = source.vector_type === "sparse";
  const targetSparse = target.vector_type === "sparse";
  if (sourceSparse !== targetSparse) {
    throw new ToolError({
      problem: `Index ${q(source.name)} holds ${sourceSparse ? "sparse" : "dense"} vectors and the target ${q(target.name)} ${targetSparse ? "sparse" : "dense"} ones: the records cannot be copied as they are`,
      next: sourceSparse
        ? "copy into a sparse index, or into a new index with a dense model (createTarget: true, targetModel) to re-embed the text."
        : "copy into a dense index of the same dimension.",
    });
  }
  if (!sourceSparse && source.dimension !== target.dimension) {
    throw new ToolError({
      problem: `Dimension mismatch: index ${q(source.name)} holds vectors of dimension ${source.dimension}, the target ${q(target.name)} takes ${target.dimension}`,
      next: "copy into an index of the same dimension (or a new one: another targetIndex with createTarget: true); to change the model, copy text records into an index that embeds them (targetModel).",
    });
  }
  return { mode: { kind: "vectors" }, how: "as they are (ids, values, sparse values, metadata)" };
}

function creationPlan(source: IndexModel, req: CopyRequest): CopyPlan {
  if (!req.createTarget) {
    throw new ToolError({
      problem: `The target index ${q(req.targetIndex)} does not exist`,
      next: `call again with createTarget: true to create it like ${q(source.name)}${req.targetModel ? "" : " (or with targetModel to re-embed the text by another model)"}, or name an existing targetIndex.`,
    });
  }
  const where = placement(source);
  const model = req.targetModel ?? source.embed?.model;
  if (model !== undefined) {
    const field = textField(source) ?? "text";
    const body: CreateIndexForModelRequest = { name: req.targetIndex, ...where, embed: { model, field_map: { text: field } } };
    const create: TargetCreation = { kind: "model", body };
    if (model === source.embed?.model) return { mode: { kind: "vectors" }, create, how: `as they are (the same model, ${q(model)})` };
    return { ...textPlan(source, field, model), create };
  }
  if (source.vector_type === "sparse" || typeof source.dimension !== "number") {
    throw new ToolError({
      problem: `Index ${q(source.name)} holds sparse vectors, and this tool creates only dense indexes or indexes that embed text`,
      next: "create the sparse target yourself (create_index) and call again, or give targetModel to re-embed the text.",
    });
  }
  const metric = source.metric as CreateIndexRequest["metric"];
  return {
    mode: { kind: "vectors" },
    create: { kind: "index", body: { name: req.targetIndex, dimension: source.dimension, metric, spec: { serverless: where } } },
    how: "as they are (ids, values, sparse values, metadata)",
  };
}

/** The text comes from the source's own text field; from a source that embeds none, from the field the target embeds. */
function textPlan(source: IndexModel, targetField: string, model: string): CopyPlan {
  const sourceField = textField(source) ?? targetField;
  return {
    mode: { kind: "text", sourceField, targetField },
    how: `re-embedded by ${q(model)} from the text of the field ${q(sourceField)}${sourceField === targetField ? "" : ` (written as ${q(targetField)})`}; ids and other fields kept`,
  };
}
