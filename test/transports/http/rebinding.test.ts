// The HTTP transport's Host / Origin policy (DNS-rebinding protection). What counts as loopback: test/common/loopback.test.ts.
import { networkInterfaces } from "node:os";
import { describe, expect, test } from "vitest";
import { rebindingGuard, urlHost } from "../../../src/transports/http/rebinding.js";

test("urlHost brackets IPv6 literals", () => {
  expect(urlHost("::1")).toBe("[::1]");
  expect(urlHost("[::1]")).toBe("[::1]");
  expect(urlHost("127.0.0.1")).toBe("127.0.0.1");
  expect(urlHost("Example.COM")).toBe("example.com");
});

describe("bound to 127.0.0.1:3333", () => {
  const p = rebindingGuard("127.0.0.1", 3333);
  test.each(["127.0.0.1:3333", "localhost:3333", "LOCALHOST:3333", "[::1]:3333"])("Host %s is accepted", (h) => {
    expect(p.hostAllowed(h)).toBe(true);
  });
  test.each([undefined, "", "127.0.0.1", "127.0.0.1:3334", "evil.example:3333", "127.0.0.1:3333/x", "user@127.0.0.1:3333", "127.0.0.1.nip.io:3333"])(
    "Host %s is refused",
    (h) => {
      expect(p.hostAllowed(h)).toBe(false);
    },
  );
  test.each(["http://127.0.0.1:3333", "http://localhost:3333", "http://[::1]:3333"])("Origin %s is accepted", (o) => {
    expect(p.originAllowed(o)).toBe(true);
  });
  test("no Origin (not a browser) is accepted", () => {
    expect(p.originAllowed(undefined)).toBe(true);
  });
  test.each(["http://evil.example", "http://localhost:8080", "http://127.0.0.1", "null", "file:///etc/passwd", "chrome-extension://abc", "garbage"])(
    "Origin %s is refused",
    (o) => {
      expect(p.originAllowed(o)).toBe(false);
    },
  );
});

describe("bound to a non-loopback address", () => {
  test("only that address, not localhost", () => {
    const p = rebindingGuard("192.168.1.5", 8080);
    expect(p.hostAllowed("192.168.1.5:8080")).toBe(true);
    expect(p.hostAllowed("localhost:8080")).toBe(false);
    expect(p.originAllowed("http://192.168.1.5:8080")).toBe(true);
  });
  test("every interface (0.0.0.0): the machine's own addresses and localhost", () => {
    const p = rebindingGuard("0.0.0.0", 8080);
    expect(p.hostAllowed("localhost:8080")).toBe(true);
    for (const list of Object.values(networkInterfaces())) {
      for (const a of list ?? []) expect(p.hostAllowed(`${urlHost(a.address)}:8080`), a.address).toBe(true);
    }
    expect(p.hostAllowed("evil.example:8080")).toBe(false);
  });
  test("--allowed-hosts: a name without a port is accepted on any port, name:port only on that port", () => {
    const p = rebindingGuard("10.1.2.3", 8080, ["mcp.example.internal", "proxy.example:443"]);
    expect(p.hostAllowed("mcp.example.internal:8080")).toBe(true);
    expect(p.hostAllowed("mcp.example.internal")).toBe(true);
    expect(p.originAllowed("https://mcp.example.internal")).toBe(true);
    expect(p.hostAllowed("proxy.example:443")).toBe(true);
    expect(p.hostAllowed("proxy.example:80")).toBe(false);
    expect(p.originAllowed("https://proxy.example")).toBe(true);
    expect(p.originAllowed("http://proxy.example")).toBe(false);
    expect(p.hostAllowed("other.example:8080")).toBe(false);
  });
});
