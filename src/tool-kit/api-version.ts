// The tools that exist only from API version 2026-07 (backup schedules, namespace aliases) refuse plainly, before any
// request, when the server speaks an older version: the answer names the setting that chooses it.
import { speaksSchemaApi, SCHEMA_API_VERSION } from "../api/schema-form.js";
import type { Untouched } from "./refusal.js";
import { ToolError } from "./tool-error.js";

export function requireSchemaApi(tool: string, apiVersion: string, untouched: Untouched): void {
  if (speaksSchemaApi(apiVersion)) return;
  throw new ToolError({
    problem: `${tool} needs API version ${SCHEMA_API_VERSION} or later; this server speaks ${apiVersion} (PINECONE_API_VERSION)`,
    untouched,
    next: `tell the user; it needs the server restarted with PINECONE_API_VERSION=${SCHEMA_API_VERSION} (the service must support it).`,
  });
}
