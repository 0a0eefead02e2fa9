// One table: what the service can answer 404 for, and the tool that lists what there is instead. Both the tools
// (which know the name they asked for) and the server's error text (which knows only the URL) read it.
import { ServiceError } from "../api/errors.js";
import type { Untouched } from "./refusal.js";
import { ToolError } from "./tool-error.js";

export type Resource = "index" | "collection" | "backup" | "restore job" | "namespace" | "import" | "model" | "backup schedule" | "namespace alias";

interface Listing {
  /** The tool that lists the resources of this kind. */
  tool: string;
  plural: string;
  /** How a URL path names one resource of this kind. */
  path: RegExp;
}

/** In the order a URL path is matched: the more specific first (/indexes/x/backups is about a backup). */
const LISTED_BY: Record<Resource, Listing> = {
  "restore job": { tool: "list_restore_jobs", plural: "restore jobs", path: /\/restore-jobs\// },
  "backup schedule": { tool: "list_backup_schedules", plural: "backup schedules", path: /^\/backup-schedules\// },
  "namespace alias": { tool: "list_namespace_aliases", plural: "namespace aliases", path: /\/namespace-aliases\// },
  backup: { tool: "list_backups", plural: "backups", path: /\/backups\// },
  import: { tool: "list_bulk_imports", plural: "imports", path: /\/bulk\/imports\// },
  namespace: { tool: "list_namespaces", plural: "namespaces", path: /(?<!\/records)\/namespaces\// }, // not a records search or upsert
  collection: { tool: "list_collections", plural: "collections", path: /^\/collections(\/|$)/ },
  model: { tool: "list_models", plural: "models", path: /\/models\// },
  index: { tool: "list_indexes", plural: "indexes", path: /^\/indexes\// },
};

/** "Call list_namespaces to see the namespaces there are, then call again with one of them." */
export function listingStep(resource: Resource): string {
  const { tool, plural } = LISTED_BY[resource];
  return `Call ${tool} to see the ${plural} there are, then call again with one of them.`;
}

/** The kind of resource a URL asks for, or undefined. */
export function resourceOf(url: string): Resource | undefined {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // not a URL: match the text as it is
  }
  return (Object.keys(LISTED_BY) as Resource[]).find((r) => LISTED_BY[r].path.test(path));
}

/**
 * Rethrows the service's 404 for `missing` as a refusal that names it and the tool listing the others
 * ('Namespace "a" not found in index "docs".'); anything else (a 404 for the index itself included) as it is.
 */
export function refuseMissing(err: unknown, missing: { resource: Resource; name: string; index?: string }, untouched?: Untouched): never {
  if (err instanceof ServiceError && err.status === 404 && resourceOf(err.url) === missing.resource) {
    const kind = missing.resource[0].toUpperCase() + missing.resource.slice(1);
    const where = missing.index === undefined ? "" : ` in index ${JSON.stringify(missing.index)}`;
    throw new ToolError({ problem: `${kind} ${JSON.stringify(missing.name)} not found${where}`, untouched, next: listingStep(missing.resource) });
  }
  throw err;
}
