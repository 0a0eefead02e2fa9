// Arguments of the backup schedule and namespace alias tools.
import { z } from "zod";
import { FREQUENCIES } from "../results/schedules-aliases.js";
import { ruleError, textArg, wholeNumberArg, type RuleOptions } from "./schema.js";

export function scheduleIdArg(rules: RuleOptions) {
  return textArg(1, 200, ruleError("schedule ids are 1–200 characters", rules)).describe("Schedule id (list_backup_schedules shows them).");
}

export function frequencyArg(rules: RuleOptions) {
  return z.enum(FREQUENCIES, ruleError("frequency is daily, weekly or monthly", rules)).describe("How often it backs up: daily, weekly or monthly.");
}

export function retentionDaysArg(rules: RuleOptions) {
  return wholeNumberArg(1, 3650, ruleError("retentionDays is a whole number from 1 to 3650", rules)).describe("Days to keep each backup it makes.");
}

/** Printable ASCII but space and / ? # % & = \ ; + — the API's rule for alias names. */
const ALIAS_NAME = /^[\x21\x22\x24\x27-\x2A\x2C-\x2E\x30-\x3A\x3C\x3E\x40-\x5B\x5D-\x7E]+$/;

export function aliasArg(description: string, rules: RuleOptions) {
  return textArg(1, 512, ruleError("alias names are 1–512 characters", rules))
    .refine((s) => ALIAS_NAME.test(s), ruleError('alias names are printable ASCII without spaces or any of / ? # % & = \\ ; +', rules))
    .refine((s) => s !== "__default__" && s !== "." && s !== "..", ruleError('"__default__", "." and ".." cannot be alias names', rules))
    .describe(description);
}

/** The namespace an alias points at: ASCII, "__default__" or "" for the default one. */
export function targetNamespaceArg(description: string, rules: RuleOptions) {
  return textArg(0, 512, ruleError("namespaces are at most 512 characters", rules))
    .refine((s) => /^[\x01-\x7F]*$/.test(s), ruleError("an alias can point only at a namespace whose name is ASCII", rules))
    .describe(description);
}
