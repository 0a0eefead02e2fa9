// Where an index's data plane is called: its host as the control plane names it, made a base URL.
import { isLoopbackHost } from "../common/loopback.js";

/**
 * The base URL of an index host. A loopback host (src/common/loopback.ts; any port) is called over http when
 * the controller URL is http; every other host over https. A scheme the host already carries is kept only when it
 * agrees with that rule; otherwise it is replaced (so a remote host is never called over plain http).
 */
export function dataUrlFor(host: string, controllerUrl: string): string {
  const controllerIsHttp = new URL(controllerUrl).protocol === "http:";
  const hostPort = parseHost(host);
  const loopback = isLoopbackHost(new URL(`http://${hostPort}`).hostname);
  const scheme = controllerIsHttp && loopback ? "http" : "https";
  return `${scheme}://${hostPort}`;
}

/** "host", "host:port", "[::1]:port", "::1", or any of them with a scheme and/or path → "host[:port]" as in a URL. */
function parseHost(host: string): string {
  const trimmed = host.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return new URL(trimmed).host;
  const bare = trimmed.replace(/\/.*$/, "");
  try {
    const url = new URL(`http://${bare}`);
    if (url.host !== "") return url.host;
  } catch {
    // a bare IPv6 address ("::1") is not a valid authority; bracket it below
  }
  return new URL(`http://[${bare}]`).host;
}
