// Which client an address stands for, and whose X-Forwarded-For is believed.
import { expect, test } from "vitest";
import { clientOf, requestClient, TrustedProxies } from "../../../src/transports/http/client-address.js";

test("all of loopback is one client: 127.0.0.2, 127.0.0.3 … and ::1 count as 127.0.0.1", () => {
  for (const a of ["127.0.0.1", "127.0.0.2", "127.255.0.9", "::1", "::ffff:127.0.0.3"]) expect(clientOf(a)).toBe("loopback");
});

test("an IPv6 /64 is one client; another /64, or an IPv4 address, is another", () => {
  expect(clientOf("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
  expect(clientOf("2001:db8:1:2:ffff:ffff:ffff:fffe")).toBe("2001:db8:1:2::/64");
  expect(clientOf("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
  expect(clientOf("10.0.0.1")).toBe("10.0.0.1");
  expect(clientOf("::ffff:10.0.0.1")).toBe("10.0.0.1");
  expect(clientOf("10.0.0.2")).toBe("10.0.0.2");
});

test("X-Forwarded-For names the client only when the connection comes from a trusted proxy", () => {
  const trusted = new TrustedProxies(["10.0.0.5", "192.168.0.0/16"]);
  expect(requestClient("10.0.0.5", "203.0.113.7", trusted)).toBe("203.0.113.7");
  // someone else writing the header is counted as themselves
  expect(requestClient("10.0.0.6", "203.0.113.7", trusted)).toBe("10.0.0.6");
  expect(requestClient("127.0.0.1", "203.0.113.7", new TrustedProxies([]))).toBe("loopback");
  // the client's own entries (left of what the trusted proxies wrote) prove nothing
  expect(requestClient("10.0.0.5", "1.1.1.1, 203.0.113.7, 192.168.3.4", trusted)).toBe("203.0.113.7");
  expect(requestClient("::ffff:10.0.0.5", "2001:db8:1:2::9", trusted)).toBe("2001:db8:1:2::/64");
  // a trusted proxy that sends no header, or garbage, is counted as itself
  expect(requestClient("10.0.0.5", undefined, trusted)).toBe("10.0.0.5");
  expect(requestClient("10.0.0.5", "unknown", trusted)).toBe("10.0.0.5");
});
