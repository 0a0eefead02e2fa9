// zod compiles a parser (generated code, `new Function`) for an object schema on its first parse. That pays for a
// tool call's arguments (10,000 records in one upsert) and the embedded service's bodies, not for what a server
// parses before its first answer: the protocol's messages and the settings, a few times each. So the MCP server
// starts with it off (src/cli.ts) and turns it on before it builds the schemas that pay: a tool's module
// (tool-catalog.ts) or the embedded local service (src/main.ts). zod decides when it builds a schema, so the
// protocol's schemas, built first, keep parsing without it (their messages are small; about 6% of a cold start's CPU).
import { config } from "zod";

/** Schemas built from now on parse without generated code. */
export function startWithoutJit(): void {
  config({ jitless: true });
}

/** Schemas built from now on compile their parsers again (zod's default). */
export function jitFromNowOn(): void {
  config({ jitless: false });
}
