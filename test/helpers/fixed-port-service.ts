// The local service run by hand on a fixed control port (`serve --port N`), so that it can be stopped and started
// again on the same port while its index ports move: what a port squatter or a relay waits for.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import { cliPath } from "./local-service.js";

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

export function serveOnPort(port: number, dataDir: string, apiKey: string): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [cliPath, "serve", "--port", String(port), "--data-dir", dataDir], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, VECDB_LOCAL_API_KEY: apiKey },
  });
  let err = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 15_000);
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      if (err.includes("listening on")) {
        clearTimeout(timer);
        resolve({
          child,
          stop: () => new Promise<void>((r) => (child.exitCode !== null ? r() : (child.once("exit", () => r()), child.kill("SIGTERM")))),
        });
      }
    });
  });
}
