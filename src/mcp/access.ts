// The safe modes, checked on every call (not only by hiding tools from tools/list):
//   --read-only          only tools whose readOnlyHint is true exist;
//   --allow-destructive  the delete tools exist only with it;
//   --indexes a,b        every index argument must be one of these, and the service view the tools get hides the
//                        others (list_indexes, create_collection's list of pod indexes, …) and refuses them by name.
// Collections name no index (the API does not say which index a collection was copied from), so under --indexes
// they are listed and described as usual, but nothing may be restored from one (create_index with
// pod.sourceCollection) or delete one: either could reach records of an index outside the list.
import type { ConfigureIndexRequest, ControlPlane, CreateBackupScheduleRequest, CreateIndexForModelRequest, CreateIndexRequest } from "../api/control.js";
import type { HostResolver } from "../api/index-hosts.js";
import type { Service } from "../api/service.js";
import type { Config } from "../config.js";
import { refusalText, untouchedBy, type Refusal } from "../tool-kit/refusal.js";
import { ToolError } from "../tool-kit/tool-error.js";
import type { AnyTool } from "../tool-kit/tool.js";

export type Access = Pick<Config, "readOnly" | "allowDestructive" | "indexes">;

const list = (names: readonly string[]) => names.map((n) => JSON.stringify(n)).join(", ");

/** Why `tool` does not exist on this server (the text a call to it gets), or undefined when it does. */
export function toolRefusal(tool: Pick<AnyTool, "name" | "annotations" | "requiresAllowDestructive" | "unscopedWrite">, access: Access): string | undefined {
  if (access.readOnly && !tool.annotations.readOnlyHint) {
    return refusalText({
      problem: `${tool.name} is not available: this server runs read-only (--read-only / VECDB_READ_ONLY), so only tools that read can be called`,
      untouched: untouchedBy(tool),
      next: "tell the user; writing needs the server restarted without --read-only.",
    });
  }
  if (tool.requiresAllowDestructive && !access.allowDestructive) {
    return refusalText({
      problem: `${tool.name} is not available: the delete tools exist only when the server is started with --allow-destructive (VECDB_ALLOW_DESTRUCTIVE=1)`,
      untouched: untouchedBy(tool),
      next: "tell the user; deleting needs the server restarted with --allow-destructive.",
    });
  }
  if (tool.unscopedWrite && access.indexes) {
    return refusalText({
      problem: `${tool.name} is not available: this server is limited to the indexes ${list(access.indexes)} (--indexes / VECDB_INDEXES), and a collection may hold records of any index`,
      untouched: untouchedBy(tool),
    });
  }
  return undefined;
}

/** The refusal of an index outside --indexes; it does not say whether such an index exists. */
function indexRefusal(name: string, indexes: readonly string[]): Refusal {
  return {
    problem: `Index ${JSON.stringify(name)} is not available: this server is limited to the indexes ${list(indexes)} (--indexes / VECDB_INDEXES)`,
    next: "call again with one of those indexes.",
  };
}

/** The refusal of a call whose `index` argument (or another argument naming an index) is outside --indexes. */
export function callRefusal(tool: Pick<AnyTool, "indexArguments" | "annotations" | "requiresAllowDestructive">, args: Record<string, unknown>, access: Access): string | undefined {
  if (!access.indexes) return undefined;
  for (const arg of ["index", ...(tool.indexArguments ?? [])]) {
    const name = args[arg];
    if (typeof name === "string" && !access.indexes.includes(name)) return refusalText(indexRefusal(name, access.indexes), untouchedBy(tool));
  }
  return undefined;
}

/**
 * The service as the tools see it under --indexes: other indexes are missing from lists and refused by name, so a
 * tool cannot show or touch them even through a path the argument check does not see. Without --indexes: `service`.
 */
export function scopedService(service: Service, indexes: readonly string[] | undefined): Service {
  if (!indexes) return service;
  const allow = (name: string) => {
    if (!indexes.includes(name)) throw new ToolError(indexRefusal(name, indexes));
  };
  const inner = service.control;
  const control: ControlPlane = Object.assign(Object.create(inner) as ControlPlane, {
    listIndexes: async (signal?: AbortSignal) => (await inner.listIndexes(signal)).filter((i) => indexes.includes(i.name)),
    describeIndex: async (name: string, signal?: AbortSignal) => (allow(name), inner.describeIndex(name, signal)),
    createIndex: async (body: CreateIndexRequest, signal?: AbortSignal) => {
      allow(body.name);
      if (body.spec.pod?.source_collection !== undefined) {
        throw new ToolError({
          problem: `An index cannot be created from a collection on this server: it is limited to the indexes ${list(indexes)} (--indexes / VECDB_INDEXES), and a collection may hold records of any index`,
          untouched: "created",
          next: "create the index without pod.sourceCollection.",
        });
      }
      return inner.createIndex(body, signal);
    },
    createIndexForModel: async (body: CreateIndexForModelRequest, signal?: AbortSignal) => (
      allow(body.name), inner.createIndexForModel(body, signal)
    ),
    deleteIndex: async (name: string, signal?: AbortSignal) => (allow(name), inner.deleteIndex(name, signal)),
    createCollection: async (body: { name: string; source: string }, signal?: AbortSignal) => (
      allow(body.source), inner.createCollection(body, signal)
    ),
    ...scopedBackups(inner, indexes, allow),
  });
  const hosts: HostResolver = Object.assign(Object.create(service.hosts) as HostResolver, {
    resolve: async (name: string, signal?: AbortSignal) => (allow(name), service.hosts.resolve(name, signal)),
  });
  return { ...service, control, hosts };
}

/** Configure, backups and restore jobs under --indexes: a backup counts as its source index's, a restore job as its target's. */
function scopedBackups(inner: ControlPlane, indexes: readonly string[], allow: (name: string) => void): Partial<ControlPlane> {
  const seen = (name: string) => indexes.includes(name);
  const backupOf = async (id: string, signal?: AbortSignal) => {
    const backup = await inner.describeBackup(id, signal);
    allow(backup.source_index_name);
    return backup;
  };
  return {
    configureIndex: async (name: string, body: ConfigureIndexRequest, signal?: AbortSignal, textField?: string) => (
      allow(name), inner.configureIndex(name, body, signal, textField)
    ),
    // A schedule is reached by id only after the tool found it among its index's schedules (index-schedule.ts).
    createBackupSchedule: async (index: string, body: CreateBackupScheduleRequest, signal?: AbortSignal) => (
      allow(index), inner.createBackupSchedule(index, body, signal)
    ),
    listBackupSchedules: async (index: string, opts: Parameters<ControlPlane["listBackupSchedules"]>[1], signal?: AbortSignal) => (
      allow(index), inner.listBackupSchedules(index, opts, signal)
    ),
    createBackup: async (index: string, body: { name?: string; description?: string }, signal?: AbortSignal) => (
      allow(index), inner.createBackup(index, body, signal)
    ),
    listBackups: async (opts: Parameters<ControlPlane["listBackups"]>[0], signal?: AbortSignal) => {
      if (opts.index !== undefined) allow(opts.index);
      const page = await inner.listBackups(opts, signal);
      return { ...page, items: page.items.filter((b) => seen(b.source_index_name)) };
    },
    describeBackup: backupOf,
    deleteBackup: async (id: string, signal?: AbortSignal) => (await backupOf(id, signal), inner.deleteBackup(id, signal)),
    createIndexFromBackup: async (id: string, body: Parameters<ControlPlane["createIndexFromBackup"]>[1], signal?: AbortSignal) => {
      allow(body.name);
      await backupOf(id, signal);
      return inner.createIndexFromBackup(id, body, signal);
    },
    listRestoreJobs: async (opts: Parameters<ControlPlane["listRestoreJobs"]>[0], signal?: AbortSignal) => {
      const page = await inner.listRestoreJobs(opts, signal);
      return { ...page, items: page.items.filter((j) => seen(j.target_index_name)) };
    },
    describeRestoreJob: async (id: string, signal?: AbortSignal) => {
      const job = await inner.describeRestoreJob(id, signal);
      allow(job.target_index_name);
      return job;
    },
  };
}
