// Labelled queries from a file under an allowed root (opened as import_vectors opens its files): a JSON array of
// queries, or JSONL with one query a line. Each item is checked with the same schema as the inline queries; a bad
// one is named by its line (JSONL) or position (array).
import type { z } from "zod";
import { openAllowedFile, readAsChecked } from "../../common/safe-open.js";
import { ToolError } from "../tool-error.js";

const MAX_BYTES = 16 * 1024 * 1024;

export async function readQueryFile<T>(path: string, roots: readonly string[], schema: z.ZodType<T>, maxQueries: number): Promise<{ file: string; queries: T[] }> {
  const opened = await openAllowedFile(path, roots);
  if (!opened.ok) throw new ToolError({ problem: opened.message, untouched: "read" });
  const file = opened.file;
  let text: string;
  try {
    if (file.stat.size > MAX_BYTES) throw new ToolError({ problem: `${file.realPath} is ${file.stat.size} bytes; a file of labelled queries is at most ${MAX_BYTES} bytes`, untouched: "read" });
    text = (await readAsChecked(file)).toString("utf8");
  } finally {
    await file.close();
  }
  const where = file.realPath;
  const items: { at: string; value: unknown }[] = [];
  const bad = (at: string, problem: string) => new ToolError({ problem: `${where}, ${at}: ${problem}`, untouched: "read", next: "fix the file and call again." });
  if (text.trimStart().startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw bad("the JSON array", "is not valid JSON");
    }
    (parsed as unknown[]).forEach((value, i) => items.push({ at: `query at position ${i}`, value }));
  } else {
    text.split("\n").forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        items.push({ at: `line ${i + 1}`, value: JSON.parse(line) });
      } catch {
        throw bad(`line ${i + 1}`, "is not valid JSON (one query a line, or the whole file one JSON array)");
      }
    });
  }
  if (items.length === 0) throw new ToolError({ problem: `${where} holds no queries`, untouched: "read", next: "check that this is the right file." });
  if (items.length > maxQueries) throw new ToolError({ problem: `${where} holds ${items.length} queries; at most ${maxQueries} a call`, untouched: "read" });
  const queries = items.map(({ at, value }) => {
    const checked = schema.safeParse(value);
    if (!checked.success) {
      // The schema's messages name the field and end with what was untouched already.
      throw new ToolError({ problem: `${where}, ${at}: ${checked.error.issues[0].message}`, untouched: false, next: "fix the file and call again." });
    }
    return checked.data;
  });
  return { file: where, queries };
}
