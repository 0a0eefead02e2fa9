// Who a request comes from, for the caps per client. Addresses one machine can pick from freely count as one client:
// all of loopback (127.0.0.0/8 and ::1 — a local user can bind 127.0.0.2, 127.0.0.3, …) and an IPv6 /64 (one host
// is routinely given a whole /64). A proxy's X-Forwarded-For is believed only when the connection comes from an
// address named in --trusted-proxies: anyone else could write any address there.
import ipaddr from "ipaddr.js";

const LOOPBACK = "loopback";

/** The client an address stands for: "loopback", an IPv4 address, or an IPv6 /64 ("2001:db8:1:2::/64"). */
export function clientOf(address: string | undefined): string {
  if (address === undefined || !ipaddr.isValid(address)) return address ?? "?";
  const ip = ipaddr.process(address); // ::ffff:a.b.c.d is a.b.c.d
  if (ip.range() === "loopback") return LOOPBACK;
  if (ip.kind() === "ipv4") return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(":")}::/64`;
}

/** The addresses and ranges of --trusted-proxies. */
export class TrustedProxies {
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][];
  constructor(list: readonly string[]) {
    this.ranges = list.map((entry) => (entry.includes("/") ? ipaddr.parseCIDR(entry) : ((ip) => [ip, ip.kind() === "ipv4" ? 32 : 128] as [typeof ip, number])(ipaddr.parse(entry))));
  }
  get none(): boolean {
    return this.ranges.length === 0;
  }
  trusts(address: string | undefined): boolean {
    if (address === undefined || this.ranges.length === 0 || !ipaddr.isValid(address)) return false;
    const ip = ipaddr.process(address);
    return this.ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
  }
}

/**
 * The client of a request: its connection's address, or — when that is a trusted proxy — the nearest address in
 * X-Forwarded-For that is not a trusted proxy itself (the entries further left were written by the client and prove
 * nothing).
 */
export function requestClient(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trusted: TrustedProxies): string {
  if (!trusted.trusts(socketAddress) || forwardedFor === undefined) return clientOf(socketAddress);
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",").map((h) => h.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!ipaddr.isValid(hops[i])) return clientOf(socketAddress); // a proxy we trust wrote garbage: count it as itself
    if (!trusted.trusts(hops[i])) return clientOf(hops[i]);
  }
  return clientOf(socketAddress);
}
