// The descriptor beside the lock (service.json, mode 0600): how an MCP server finds the data dir's running service —
// its pid, its control-plane URL and its key, plus a random instance id that tells one start from the next. Written
// by the service once it listens, removed when it closes. Its content goes to no stdout and no log line.
import { closeSync, fstatSync, openSync, readFileSync, renameSync, unlinkSync, writeSync, constants } from "node:fs";
import { join } from "node:path";
import { isLoopbackHost } from "../../common/loopback.js";

const DESCRIPTOR_FILE = "service.json";

export interface Descriptor {
  pid: number;
  url: string; // http://127.0.0.1:PORT, the control plane
  apiKey: string;
  instance: string;
}

/** A descriptor that must not be used: written by another user, or naming an address off this machine. */
class DescriptorRefused extends Error {}

export function writeDescriptor(dataDir: string, descriptor: Descriptor): () => void {
  const path = join(dataDir, DESCRIPTOR_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, `${JSON.stringify(descriptor)}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  return () => {
    try {
      if (readDescriptorFile(path)?.instance === descriptor.instance) unlinkSync(path);
    } catch {
      // gone already
    }
  };
}

function readDescriptorFile(path: string): (Descriptor & { uid: number }) | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw new DescriptorRefused(`${path} is a symbolic link; refusing to follow it. Remove it.`);
    throw e;
  }
  try {
    const uid = fstatSync(fd).uid;
    const parsed = JSON.parse(readFileSync(fd, "utf8")) as Partial<Descriptor>;
    if (
      !Number.isInteger(parsed.pid) ||
      typeof parsed.url !== "string" ||
      typeof parsed.apiKey !== "string" ||
      typeof parsed.instance !== "string"
    ) {
      return undefined; // half-written by an older version, or damaged: treated as no service
    }
    return { pid: parsed.pid!, url: parsed.url, apiKey: parsed.apiKey, instance: parsed.instance, uid };
  } catch (e) {
    if (e instanceof SyntaxError) return undefined;
    throw e;
  } finally {
    closeSync(fd);
  }
}

/**
 * The data dir's descriptor, or undefined when there is none. Throws DescriptorRefused for one another user wrote
 * (its key and address could be anyone's) or one that points anywhere but loopback (the key would leave the machine).
 */
export function readDescriptor(dataDir: string, myUid: number | undefined = process.getuid?.()): Descriptor | undefined {
  const path = join(dataDir, DESCRIPTOR_FILE);
  const found = readDescriptorFile(path);
  if (!found) return undefined;
  const { uid, ...descriptor } = found;
  if (myUid !== undefined && uid !== myUid) {
    throw new DescriptorRefused(
      `${path} belongs to another user (uid ${uid}, you are uid ${myUid}); refusing to use the service it names. ` +
        `Remove it, or choose a data dir of your own (--data-dir).`,
    );
  }
  let url: URL;
  try {
    url = new URL(descriptor.url);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" || !isLoopbackHost(url.hostname)) {
    throw new DescriptorRefused(
      `${path} points at ${url.host}, which is not a loopback address; refusing to send the data dir's key there. ` +
        `Run the service with --host 127.0.0.1, or remove the file.`,
    );
  }
  return descriptor;
}
