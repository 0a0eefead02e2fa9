// Which Host and Origin headers the HTTP transport accepts (DNS-rebinding protection).
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { isLoopbackHost } from "../../common/loopback.js";

/** A hostname as it appears in a Host header or URL: IPv6 literals in brackets, lower case. */
export function urlHost(host: string): string {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return isIP(h) === 6 ? `[${h}]` : h;
}

export interface RebindingGuard {
  /** Whether a Host header value (e.g. "127.0.0.1:3333") names this server. */
  hostAllowed(header: string | undefined): boolean;
  /** Whether an Origin header value may call this server; an absent Origin (not a browser) is allowed. */
  originAllowed(header: string | undefined): boolean;
  /** The accepted host names, for a log line. */
  names: string[];
}

/**
 * bound: the address given to listen (e.g. "127.0.0.1", "0.0.0.0", "::"); port: the real port.
 * extra: more names (or name:port) the server is reached by, e.g. behind a DNS name or a proxy;
 * a name without a port is accepted on any port.
 */
export function rebindingGuard(bound: string, port: number, extra: readonly string[] = []): RebindingGuard {
  const names = new Set<string>([urlHost(bound)]);
  if (isLoopbackHost(bound)) for (const n of ["localhost", "127.0.0.1", "[::1]"]) names.add(n);
  // Bound to every interface: the machine's own addresses (and localhost) are the names it is reached by.
  if (bound === "0.0.0.0" || bound === "::" || bound === "[::]") {
    for (const n of ["localhost", "127.0.0.1", "[::1]"]) names.add(n);
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(urlHost(a.address));
  }
  const anyPort = new Set<string>();
  const exact = new Set<string>();
  for (const e of extra) {
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(e.trim().toLowerCase());
    if (!m) continue;
    if (m[2]) exact.add(`${urlHost(m[1])}:${Number(m[2])}`);
    else anyPort.add(urlHost(m[1]));
  }

  const parse = (hostPort: string): { name: string; port: number } | undefined => {
    try {
      const u = new URL(`http://${hostPort}`);
      if (u.username || u.password || u.pathname !== "/" || u.search || u.hash) return undefined;
      return { name: u.hostname.toLowerCase(), port: u.port === "" ? 80 : Number(u.port) };
    } catch {
      return undefined;
    }
  };
  const allowed = (name: string, p: number) =>
    (names.has(name) && p === port) || anyPort.has(name) || exact.has(`${name}:${p}`);

  return {
    names: [...names, ...anyPort, ...exact],
    hostAllowed(header) {
      if (!header) return false;
      const h = parse(header);
      return h !== undefined && allowed(h.name, h.port);
    },
    originAllowed(header) {
      if (header === undefined) return true;
      let u: URL;
      try {
        u = new URL(header);
      } catch {
        return false; // includes the opaque "null" origin of sandboxed pages and file: URLs
      }
      if (u.protocol !== "http:" && u.protocol !== "https:") return false;
      const p = u.port === "" ? (u.protocol === "https:" ? 443 : 80) : Number(u.port);
      return allowed(u.hostname.toLowerCase(), p);
    },
  };
}
