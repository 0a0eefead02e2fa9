// Checks of inference request bodies: a wrong type or a missing field is 400 naming the field.
import { invalid } from "../control/errors.js";
import type { EmbedOptions } from "../models/available-models.js";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function requiredString(body: Obj, key: string): string {
  const v = body[key];
  if (typeof v !== "string" || v === "") throw invalid(`${key} is required: a non-empty string.`);
  return v;
}

/** input_type, truncate and dimension from a parameters object (embed) or an index's read/write parameters. */
export function embedOptions(parameters: unknown, where = "parameters"): EmbedOptions {
  if (parameters === undefined || parameters === null) return {};
  if (!isObject(parameters)) throw invalid(`${where} must be an object.`);
  const out: EmbedOptions = {};
  for (const [key, v] of Object.entries(parameters)) {
    if (key === "input_type") {
      if (v !== "query" && v !== "passage") throw invalid(`${where}.input_type must be "query" or "passage" (got ${JSON.stringify(v)}).`);
      out.inputType = v;
    } else if (key === "truncate") {
      if (v !== "END" && v !== "NONE") throw invalid(`${where}.truncate must be "END" or "NONE" (got ${JSON.stringify(v)}).`);
      out.truncate = v;
    } else if (key === "dimension") {
      // The official client types parameters as strings: "16" is read as 16.
      const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
      if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 20000) throw invalid(`${where}.dimension must be an integer from 1 to 20000.`);
      out.dimension = n;
    } else {
      throw invalid(`${where}.${key} is not a parameter the local models take (they take input_type, truncate, dimension).`);
    }
  }
  return out;
}

export function parseEmbedRequest(body: Obj): { model: string; texts: string[]; options: EmbedOptions } {
  const model = requiredString(body, "model");
  const inputs = body.inputs;
  if (!Array.isArray(inputs)) throw invalid("inputs is required: a list of {text} objects.");
  const texts = inputs.map((input, i) => {
    if (!isObject(input) || typeof input.text !== "string") throw invalid(`inputs[${i}] must be an object with a text string.`);
    return input.text;
  });
  return { model, texts, options: embedOptions(body.parameters) };
}

export interface RerankRequest {
  model: string;
  query: string;
  documents: Obj[];
  topN?: number;
  rankFields: string[];
  returnDocuments: boolean;
}

export function parseRerankRequest(body: Obj): RerankRequest {
  const model = requiredString(body, "model");
  const query = requiredString(body, "query");
  const docs = body.documents;
  if (!Array.isArray(docs) || docs.length === 0) throw invalid("documents is required: a non-empty list of documents.");
  const documents = docs.map((d, i) => {
    if (typeof d === "string") return { text: d };
    if (!isObject(d)) throw invalid(`documents[${i}] must be an object (or a string).`);
    return d;
  });
  const topN = body.top_n;
  if (topN !== undefined && topN !== null && (typeof topN !== "number" || !Number.isInteger(topN) || topN < 1)) {
    throw invalid(`top_n must be a positive integer (got ${JSON.stringify(topN)}).`);
  }
  const fields = body.rank_fields ?? ["text"];
  if (!Array.isArray(fields) || fields.length === 0 || !fields.every((f) => typeof f === "string" && f !== "")) {
    throw invalid("rank_fields must be a non-empty list of field names.");
  }
  const returnDocuments = body.return_documents ?? true;
  if (typeof returnDocuments !== "boolean") throw invalid("return_documents must be a boolean.");
  if (body.parameters !== undefined && body.parameters !== null && (!isObject(body.parameters) || Object.keys(body.parameters).length > 0)) {
    throw invalid("parameters: local-bm25-rerank takes no parameters.");
  }
  return { model, query, documents, ...(typeof topN === "number" ? { topN } : {}), rankFields: fields as string[], returnDocuments };
}

/** The text a reranker reads of a document: its rank fields, each a string, joined by newlines. */
export function documentText(doc: Obj, position: number, rankFields: string[]): string {
  return rankFields
    .map((field) => {
      const v = doc[field];
      if (typeof v !== "string") throw invalid(`documents[${position}] has no string field ${JSON.stringify(field)} (rank_fields is ${JSON.stringify(rankFields)}).`);
      return v;
    })
    .join("\n");
}
