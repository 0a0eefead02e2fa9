import { expect, test } from "vitest";
import { isHostedService } from "../../src/tool-kit/hosted-service.js";

test("the hosted service is told by its control-plane host", () => {
  expect(isHostedService({ controllerUrl: "https://api.pinecone.io" })).toBe(true);
  expect(isHostedService({ controllerUrl: "https://api.eu.pinecone.io" })).toBe(true);
  expect(isHostedService({ controllerUrl: "http://127.0.0.1:5080" })).toBe(false);
  expect(isHostedService({ controllerUrl: "https://notpinecone.io" })).toBe(false);
  expect(isHostedService({ controllerUrl: "not a url" })).toBe(false);
  // With no key the server uses the (shared) local service, whose URL is not in the settings: never hosted.
  expect(isHostedService({ controllerUrl: "https://api.pinecone.io", mode: "local" })).toBe(false);
});
