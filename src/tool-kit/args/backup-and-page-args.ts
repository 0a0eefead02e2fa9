// Arguments of the backup and import tools.
import { z } from "zod";
import { ruleError, textArg, wholeNumberArg, type RuleOptions } from "./schema.js";

export function backupIdArg(rules: RuleOptions) {
  return textArg(1, 200, ruleError("backup ids are 1–200 characters", rules)).describe("Backup id (list_backups shows them).");
}

export function pageLimitArg(rules: RuleOptions, what: string) {
  return wholeNumberArg(1, 100, ruleError("limit is a whole number from 1 to 100", rules)).optional().describe(`${what} per page, 1–100.`);
}

export const tagsArg = z.record(z.string(), z.string()).optional().describe("Tags of the new index, key → value (default: the backup's).");
