// A folder only this user can use: created 0700, or an existing one checked to be a real folder (not a link) of
// this user.
import { lstat, mkdir } from "node:fs/promises";

const myUid = (): number | undefined => (typeof process.getuid === "function" ? process.getuid() : undefined);

export async function privateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const info = await lstat(folder);
  const uid = myUid();
  if (!info.isDirectory()) throw new Error(`${folder} is not a folder (a link or a file is in its place)`);
  if (uid !== undefined && info.uid !== uid) throw new Error(`${folder} belongs to another user`);
}
