// What counts as this machine, in every spelling a URL, a Host header or a command line gives it.
import { expect, test } from "vitest";
import { isLoopbackHost } from "../../src/common/loopback.js";

test.each([
  ["127.0.0.1", true],
  ["127.8.9.10", true],
  ["::1", true],
  ["[::1]", true],
  ["0:0:0:0:0:0:0:1", true],
  ["::ffff:127.0.0.1", true],
  ["[::ffff:7f00:1]", true],
  ["localhost", true],
  ["LocalHost", true],
  ["localhost.", true],
  ["api.localhost", true],
  ["0.0.0.0", false],
  ["::", false],
  ["::ffff:10.0.0.1", false],
  ["192.168.1.5", false],
  ["10.0.0.1", false],
  ["128.0.0.1", false],
  ["example.com", false],
  ["localhost.example.com", false],
  ["127.0.0.1.example.com", false],
])("isLoopbackHost(%s) is %s", (host, loopback) => {
  expect(isLoopbackHost(host)).toBe(loopback);
});
