// Prints {toolName: {inputSchema, outputSchema}} for every tool of the registry, converted exactly as the SDK's
// tools/list handler does (same functions, same options). Run by scripts/bundle.mjs on the tsc output.
import { tools } from "../dist/tools/index.js";
import { normalizeObjectSchema, objectFromShape } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";

const EMPTY_OBJECT_JSON_SCHEMA = { type: "object", properties: {} };
// registerTool wraps a raw shape with objectFromShape; tools/list then normalises and converts it.
const convert = (shape, pipeStrategy) => {
  const obj = normalizeObjectSchema(objectFromShape(shape));
  return obj ? toJsonSchemaCompat(obj, { strictUnions: true, pipeStrategy }) : undefined;
};
const out = {};
for (const tool of tools) {
  out[tool.name] = {
    inputSchema: convert(tool.inputSchema, "input") ?? EMPTY_OBJECT_JSON_SCHEMA,
    ...(tool.outputSchema && { outputSchema: convert(tool.outputSchema, "output") }),
  };
}
process.stdout.write(JSON.stringify(out));
