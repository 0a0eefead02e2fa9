// The meaning field's vectors: the text of the fields it names, embedded by its model through the service's /embed
// (passages when writing, a query when searching), at most 96 texts a call as the service's models take them.
import type { Service } from "../../api/service.js";
import type { MeaningField } from "./document-index.js";

const EMBED_BATCH = 96;

export type MeaningVector = number[] | { indices: number[]; values: number[] };

/** The text a document gives its meaning field: the named fields' text, joined by a blank line; "" when none. */
export function meaningText(meaning: MeaningField, document: Record<string, unknown>): string {
  return meaning.from
    .map((f) => document[f])
    .filter((v): v is string => typeof v === "string" && v.trim() !== "")
    .join("\n\n");
}

export async function embedForMeaning(service: Service, meaning: MeaningField, texts: readonly string[], inputType: "passage" | "query", signal: AbortSignal): Promise<MeaningVector[]> {
  const out: MeaningVector[] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    const batch = texts.slice(i, i + EMBED_BATCH);
    const answer = await service.inference.embed(
      { model: meaning.model, inputs: batch.map((text) => ({ text })), parameters: { input_type: inputType, truncate: "END" } },
      signal,
    );
    for (const e of answer.data) {
      out.push(meaning.vectorType === "sparse" ? { indices: e.sparse_indices ?? [], values: e.sparse_values ?? [] } : (e.values ?? []));
    }
  }
  return out;
}
