import { expect, test } from "vitest";
import { isHosted } from "../../src/tool-kit/hosted.js";

test("the hosted service is told by its control-plane host", () => {
  expect(isHosted({ controllerUrl: "https://api.pinecone.io" })).toBe(true);
  expect(isHosted({ controllerUrl: "https://api.eu.pinecone.io" })).toBe(true);
  expect(isHosted({ controllerUrl: "http://127.0.0.1:5080" })).toBe(false);
  expect(isHosted({ controllerUrl: "https://notpinecone.io" })).toBe(false);
  expect(isHosted({ controllerUrl: "not a url" })).toBe(false);
  // With no key the server uses the (shared) local service, whose URL is not in the settings: never hosted.
  expect(isHosted({ controllerUrl: "https://api.pinecone.io", mode: "local" })).toBe(false);
});
