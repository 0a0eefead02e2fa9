// The one rule of what counts as this machine: where the API key may go without leaving it. The client calls a
// loopback index host over http only when its controller is loopback too, asks every loopback listener to prove it
// holds the key, and never lets a remote control plane point it at a loopback port; the shared local service's
// descriptor must name a loopback URL; `serve` warns when it listens anywhere else; the HTTP transport accepts
// loopback names as its own and needs a token off loopback.
import { isIP } from "node:net";

/**
 * 127.0.0.0/8, ::1 (also as IPv4-mapped 127.x) and "localhost" (or a name under it): reachable only from this
 * machine. `host` is a hostname as a URL or a Host header gives it — bracketed or not, any case, with or without a
 * trailing dot — without a port.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  // A name (not digits and dots, no colon) is no address: answered without isIP, whose first IPv6 test compiles a
  // large regular expression (about 8 ms of CPU in a cold start, which checks the hosted service's URL).
  if (!h.includes(":") && !/^[\d.]+$/.test(h)) return false;
  if (isIP(h) === 4) return h.startsWith("127.");
  if (isIP(h) !== 6) return false;
  // The URL parser writes an IPv6 address one way: ::1, and an IPv4-mapped 127.x.y.z as ::ffff:7fxx:yyzz.
  const canonical = new URL(`http://[${h}]`).hostname;
  return canonical === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}
