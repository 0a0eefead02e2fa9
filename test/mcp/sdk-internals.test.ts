// The SDK's private fields src/mcp/sdk-internals.ts reads are still there and still mean what it takes them to mean.
import { McpServer } from "@modelcontextprotocol/server";
import { expect, test } from "vitest";
import { announcedCapabilities, requestHandlers } from "../../src/mcp/sdk-internals.js";

function serverWithOneTool(): McpServer {
  const server = new McpServer({ name: "probe", version: "0.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("probe", { description: "a probe" }, async () => ({ content: [{ type: "text", text: "probed" }] }));
  return server;
}

test("requestHandlers is the SDK's live map: tools/call is in it, and an entry set there is the one that answers", async () => {
  const server = serverWithOneTool();
  const handlers = requestHandlers(server);
  expect(handlers).toBeInstanceOf(Map);
  const sdkCall = handlers!.get("tools/call");
  expect(typeof sdkCall).toBe("function");
  const answer = (await sdkCall!({ method: "tools/call", params: { name: "probe", arguments: {} } }, { mcpReq: { signal: new AbortController().signal, requestState: () => undefined } })) as {
    content: { text: string }[];
  };
  expect(answer.content[0].text).toBe("probed");
  handlers!.set("tools/call", async () => ({ content: [{ type: "text", text: "replaced" }] }));
  expect(requestHandlers(server)!.get("tools/call")).not.toBe(sdkCall);
});

test("announcedCapabilities is what initialize will announce: McpServer promises tools.listChanged there", () => {
  const caps = announcedCapabilities(serverWithOneTool());
  expect(caps?.tools).toEqual({ listChanged: true });
});
