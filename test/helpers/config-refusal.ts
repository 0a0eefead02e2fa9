import { loadConfig } from "../../src/config.js";

/** The message loadConfig refuses these settings with, or "accepted". */
export function configRefusal(argv: string[], env: Record<string, string>): string {
  try {
    loadConfig(argv, env);
  } catch (e) {
    return (e as Error).message;
  }
  return "accepted";
}
