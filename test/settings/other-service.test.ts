// The second service copy_index names "other": its key only from the environment, its URL checked as the main one's,
// and a URL without a key refused rather than dropped.
import { expect, test } from "vitest";
import { loadConfig } from "../../src/config.js";
import { configRefusal as refusal } from "../helpers/config-refusal.js";

test("VECDB_OTHER_API_KEY and --other-host / VECDB_OTHER_HOST set the second service; the URL alone is refused", () => {
  const loaded = loadConfig(["--other-host", "http://127.0.0.1:5081/"], { PINECONE_API_KEY: "k", VECDB_OTHER_API_KEY: " other-secret-key \n" });
  expect(loaded.help === false && { key: loaded.config.otherApiKey, url: loaded.config.otherControllerUrl }).toEqual({ key: "other-secret-key", url: "http://127.0.0.1:5081" });
  const byDefault = loadConfig([], { VECDB_OTHER_API_KEY: "other-secret-key" });
  expect(byDefault.help === false && byDefault.config.otherControllerUrl).toBe("https://api.pinecone.io");

  const withoutKey = "--other-host / VECDB_OTHER_HOST names a second service, which needs its key in VECDB_OTHER_API_KEY; set it, or leave --other-host out";
  expect(refusal(["--other-host", "http://127.0.0.1:5081"], {})).toBe(withoutKey);
  expect(refusal([], { VECDB_OTHER_HOST: "http://127.0.0.1:5081" })).toBe(withoutKey);
  expect(refusal([], { VECDB_OTHER_API_KEY: "k", VECDB_OTHER_HOST: "http://other.example/v1" })).toBe(
    '--other-host / VECDB_OTHER_HOST must be an http:// or https:// URL with no path, e.g. https://api.pinecone.io (got "http://other.example/v1")',
  );
  const broken = refusal([], { VECDB_OTHER_API_KEY: "other-secret\nkey" });
  expect(broken).toBe("VECDB_OTHER_API_KEY must not contain line breaks or other control characters");
  expect(refusal(["--other-api-key", "x"], {})).toMatch(/^Unknown option '--other-api-key'/);
});
