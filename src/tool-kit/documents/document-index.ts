// A documents index as the documents tools see it: described under 2026-07 (a service that refuses that version gets
// a plain refusal saying so), its schema read into the fields a tool needs — the full-text fields, the vector fields,
// and the meaning field (a vector field whose text the tools embed with a model, named in the field's description).
import { DOCUMENTS_API_VERSION, type DocumentIndex, type SchemaField } from "../../api/documents.js";
import { ServiceError } from "../../api/errors.js";
import type { Service } from "../../api/service.js";
import type { Untouched } from "../refusal.js";
import { ToolError } from "../tool-error.js";

export interface MeaningField {
  /** The vector field that holds the embedding. */
  field: string;
  vectorType: "dense" | "sparse";
  model: string;
  /** The full-text fields whose text is embedded, joined by a blank line. */
  from: string[];
}

export interface DocumentSchemaView {
  textFields: string[];
  /** The caller's own vector fields (not the meaning field). */
  dense?: { field: string; dimension: number; metric: string };
  sparse?: { field: string };
  meaning?: MeaningField;
}

const MEANING = /^text of (\[.*\]) embedded by (".*")$/;

/** The description a meaning field carries (at most 256 bytes): which fields' text, which model. */
export function meaningDescription(from: readonly string[], model: string): string {
  return `text of ${JSON.stringify(from)} embedded by ${JSON.stringify(model)}`;
}

function meaningOf(field: string, spec: SchemaField, textFields: readonly string[]): MeaningField | undefined {
  const m = spec.description ? MEANING.exec(spec.description) : null;
  if (!m) return undefined;
  try {
    const from: unknown = JSON.parse(m[1]);
    const model: unknown = JSON.parse(m[2]);
    if (!Array.isArray(from) || typeof model !== "string" || !from.every((f) => typeof f === "string" && textFields.includes(f))) return undefined;
    return { field, vectorType: spec.type === "sparse_vector" ? "sparse" : "dense", model, from: from as string[] };
  } catch {
    return undefined;
  }
}

const RESERVED = new Set(["_values", "_sparse_values"]);

/** The fields of a document index's schema; undefined for an index the documents API does not serve. */
function schemaView(index: DocumentIndex): DocumentSchemaView | undefined {
  const fields = Object.entries(index.schema?.fields ?? {});
  if (fields.some(([name]) => RESERVED.has(name))) return undefined;
  const textFields = fields.filter(([, f]) => f.type === "string" && f.full_text_search).map(([name]) => name);
  const dense = fields.find(([, f]) => f.type === "dense_vector");
  const sparse = fields.find(([, f]) => f.type === "sparse_vector");
  if (textFields.length === 0 && !dense && !sparse) return undefined;
  const meaning = [dense, sparse].map((f) => f && meaningOf(f[0], f[1], textFields)).find((m) => m !== undefined);
  // The meaning field is the tools' to fill and to search: not a field for the caller's own vectors.
  const own = (f: typeof dense) => (f && f[0] !== meaning?.field ? f : undefined);
  const ownDense = own(dense);
  const ownSparse = own(sparse);
  return {
    textFields,
    ...(ownDense && { dense: { field: ownDense[0], dimension: ownDense[1].dimension ?? 0, metric: ownDense[1].metric ?? "cosine" } }),
    ...(ownSparse && { sparse: { field: ownSparse[0] } }),
    ...(meaning && { meaning }),
  };
}

/** True when the service refused the request for its API version (it does not speak 2026-07). */
function refusedVersion(err: unknown): boolean {
  return err instanceof ServiceError && err.status !== undefined && err.status >= 400 && err.status < 500 && /api[ _-]?version/i.test(`${err.code ?? ""} ${err.serviceMessage}`);
}

/** The refusal of a service that does not speak the documents API's version. */
function versionRefusal(err: ServiceError, untouched: Untouched): ToolError {
  return new ToolError({
    problem: `The documents tools need API version ${DOCUMENTS_API_VERSION}, and the service refused it (${err.status}: ${err.serviceMessage})`,
    untouched,
    next: "use the records tools (create_index_for_model, upsert_records, search_records) with this service, or a service that speaks 2026-07.",
  });
}

/** Runs a documents call; a refusal of the API version becomes versionRefusal. */
export async function speakingDocuments<T>(untouched: Untouched, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (refusedVersion(err)) throw versionRefusal(err as ServiceError, untouched);
    throw err;
  }
}

/** Describes the index under 2026-07 and reads its schema; refuses an index the documents API does not serve. */
export async function documentIndex(service: Service, name: string, signal: AbortSignal, untouched: Untouched): Promise<{ index: DocumentIndex; view: DocumentSchemaView }> {
  const index = await speakingDocuments(untouched, () => service.documents.describeIndex(name, signal));
  const view = schemaView(index);
  if (!view) {
    throw new ToolError({
      problem: `Index ${JSON.stringify(name)} is not a documents index (it has no schema of full-text or vector fields), so the documents tools cannot use it`,
      untouched,
      next: "use the records or vectors tools with it (describe_index shows its kind), or make a documents index with create_documents_index.",
    });
  }
  return { index, view };
}
