// What index_documents needs of a documents index: the full-text field a chunk's text goes to ("text" when the index
// has one, else its first), and how to complete a document before it is written (its meaning field's vector).
import type { Document } from "../../api/documents.js";
import { ServiceError } from "../../api/errors.js";
import type { Service } from "../../api/service.js";
import { documentIndex } from "./document-index.js";
import { embedForMeaning, meaningText } from "./meaning.js";

export interface DocumentsTarget {
  field: string;
  /** The model that embeds the text for meaning, when the index has a meaning field. */
  meaning?: string;
  complete(documents: Document[]): Promise<void>;
}

/** The index as a target for a folder's chunks, or undefined when it is not a documents index. */
export async function documentsIndexOf(service: Service, index: string, signal: AbortSignal): Promise<DocumentsTarget | undefined> {
  let view;
  try {
    ({ view } = await documentIndex(service, index, signal, "read"));
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    return undefined; // not a documents index, or a service without the documents API: the caller says what to use
  }
  if (view.textFields.length === 0) return undefined;
  const field = view.textFields.includes("text") ? "text" : view.textFields[0];
  const meaning = view.meaning;
  return {
    field,
    ...(meaning && { meaning: meaning.model }),
    async complete(documents) {
      if (!meaning) return;
      const withText = documents.filter((d) => meaningText(meaning, d) !== "");
      const vectors = await embedForMeaning(service, meaning, withText.map((d) => meaningText(meaning, d)), "passage", signal);
      withText.forEach((d, i) => (d[meaning.field] = vectors[i]));
    },
  };
}
