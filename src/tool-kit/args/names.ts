// The service's rule for index and collection names, checked before any call so that a bad name is answered with
// the rule it breaks and a valid name close to it (shared by create_index, create_collection and --indexes).
import { z } from "zod";

const NAME_RULE = '1–45 characters, lower-case letters, digits and "-", starting and ending with a letter or digit';

/** A valid name close to `name`. */
function suggestName(name: string, fallback = "my-collection"): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-+/, "")
    .slice(0, 45)
    .replace(/-+$/, "");
  return s || fallback;
}

/** Which of the service's name rules `name` breaks, and how; undefined when it keeps them all. */
export function brokenNameRule(name: string): { rule: string; what: string } | undefined {
  if (name.length < 1) return { rule: "1–45 characters", what: "is empty" };
  if (name.length > 45) return { rule: "1–45 characters", what: `is ${name.length} characters long` };
  const bad = [...new Set(name.replace(/[a-z0-9-]/g, ""))].map((c) => JSON.stringify(c));
  if (bad.length > 0) {
    const listed = bad.length === 1 ? bad[0] : `${bad.slice(0, -1).join(", ")} and ${bad[bad.length - 1]}`;
    return { rule: 'only lower-case letters a–z, digits 0–9 and "-"', what: `contains ${listed}` };
  }
  if (!/^[a-z0-9]/.test(name)) return { rule: "the first and the last character must be a letter or a digit", what: 'starts with "-"' };
  if (!/[a-z0-9]$/.test(name)) return { rule: "the first and the last character must be a letter or a digit", what: 'ends with "-"' };
  return undefined;
}

/** "Index name "My_Index" contains "M", "_" and "I". Rule: …. A valid name would be "my-index"." — or undefined. */
function nameProblem(kind: "Index" | "Collection", name: string): string | undefined {
  const broken = brokenNameRule(name);
  if (!broken) return undefined;
  const fallback = kind === "Index" ? "my-index" : "my-collection";
  return `${kind} name ${JSON.stringify(name)} ${broken.what}. Rule: ${broken.rule}. A valid name would be ${JSON.stringify(suggestName(name, fallback))}.`;
}

/** The input-schema field of a new resource's name; a bad name fails validation with nameProblem's text. */
export function newNameSchema(kind: "Index" | "Collection", description: string) {
  const error = {
    abort: true,
    error: (issue: { input?: unknown }) => {
      const name = typeof issue.input === "string" ? issue.input : "";
      return nameProblem(kind, name) ?? `${kind} name ${JSON.stringify(name)} is not valid. Rule: ${NAME_RULE}.`;
    },
  };
  // One pattern (several would make zod emit allOf) for both the character and the first/last-character rules.
  return z
    .string()
    .min(1, error)
    .max(45, error)
    .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, error)
    .describe(description);
}
