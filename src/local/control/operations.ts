// The control plane's operations on indexes and collections: inventory, data-plane ports and the
// background copies between spaces. Mutations run one at a time and answer only after lmdb committed.
import { randomUUID } from "node:crypto";
import type { Inventory, ReadCapacityRecord, StoredCollection, StoredIndex } from "../storage/inventory.js";
import { ControlError, invalid, notFound, alreadyExists } from "./errors.js";
import type { DataServers } from "../data/servers.js";
import { Jobs, Serial } from "./jobs.js";
import { RestoreProgress } from "./restore-progress.js";
import { collectionModel, indexModel } from "./records.js";
import type { ConfigureInput, CreateIndexInput } from "./validate.js";
import type { VectorStore } from "../search/engine.js";
import type { DeclaredNamespaces } from "../storage/declared-namespaces.js";
import type { NamespaceAliases } from "../storage/namespace-aliases.js";

type Model = Record<string, unknown>;
/** How an index is described: in the 2026-04 shape (records.ts) or the 2026-07 one (index-model-2026-07.ts). */
export type IndexShape = (index: StoredIndex, hostName: string) => Model;

export class ControlOperations {
  readonly serial = new Serial();
  readonly jobs = new Jobs();

  constructor(
    private readonly inventory: Inventory,
    private readonly store: VectorStore,
    private readonly servers: DataServers,
    private readonly hostName: string,
    private readonly log: (line: string) => void,
    /** Namespaces created by name: dropped and copied with their space. */
    private readonly declared?: DeclaredNamespaces,
    /** Namespace aliases: dropped with their index's space. */
    private readonly aliases?: NamespaceAliases,
  ) {}

  /** The index record with this name, if it is still the one with this id. */
  lookup(name: string, id: string): StoredIndex | undefined {
    const index = this.inventory.indexes.get(name);
    return index && index.id === id ? index : undefined;
  }

  /** At start: finish interrupted drops, open every index's port (the same one when free), resume copies. */
  async start(): Promise<void> {
    for (const space of this.inventory.pendingDrops()) {
      await this.store.dropSpace(space);
      await this.declared?.dropSpace(space);
      await this.aliases?.dropSpace(space);
      await this.inventory.clearDrop(space);
    }
    for (const index of [...this.inventory.indexes.values()]) {
      const port = await this.servers.open(index, index.port);
      if (port !== index.port) await this.inventory.putIndex({ ...index, port });
      if (index.state === "Initializing") this.startIndexCopy(index);
    }
    for (const collection of this.inventory.collections.values()) {
      if (collection.status === "Initializing") this.startCollectionCopy(collection);
    }
  }

  /** Waits for the mutation in progress and every background copy or drop. */
  async drain(): Promise<void> {
    await this.serial.run(async () => undefined);
    await this.jobs.all();
  }

  listIndexes(shape: IndexShape = indexModel): Model {
    return { indexes: sortedByName(this.inventory.indexes).map((i) => shape(i, this.hostName)) };
  }

  describeIndex(name: string, shape: IndexShape = indexModel): Model {
    return shape(this.getIndex(name), this.hostName);
  }

  createIndex(input: CreateIndexInput, shape: IndexShape = indexModel): Promise<Model> {
    return this.serial.run(async () => {
      let copyFrom: string | undefined;
      if (input.sourceCollection !== undefined) {
        const collection = this.inventory.collections.get(input.sourceCollection);
        // The hosted service answers 400 INVALID_ARGUMENT here (not 404), and clients' suites assert this text.
        if (!collection) throw invalid(`Resource ${input.sourceCollection} not found`);
        if (collection.status !== "Ready") {
          throw invalid(`Collection ${collection.name} is not ready yet (status ${collection.status}); wait until it is Ready.`);
        }
        if (collection.dimension !== undefined && input.dimension !== collection.dimension) {
          throw invalid(
            `dimension ${input.dimension ?? "(none)"} does not match the dimension of collection ${collection.name} (${collection.dimension}).`,
          );
        }
        copyFrom = collection.space;
      }
      return shape(await this.addIndex(input, copyFrom), this.hostName);
    });
  }

  /**
   * Creates the index record and opens its port; with `copyFrom` the index starts Initializing and the copy runs in
   * the background (following `restoreJobId`, if any). Call inside `serial`.
   */
  async addIndex(
    input: CreateIndexInput,
    copyFrom?: string,
    restoreJobId?: string,
    beforeCopy?: (index: StoredIndex) => Promise<void>,
  ): Promise<StoredIndex> {
    if (this.inventory.indexes.has(input.name)) throw alreadyExists(`Index ${input.name} already exists.`);
    {
      const id = randomUUID();
      const index: StoredIndex = {
        name: input.name,
        id,
        space: `i:${id}`,
        vectorType: input.vectorType,
        ...(input.dimension !== undefined ? { dimension: input.dimension } : {}),
        metric: input.metric,
        spec: input.spec,
        deletionProtection: input.deletionProtection,
        tags: input.tags,
        port: 0,
        state: copyFrom ? "Initializing" : "Ready",
        ...(copyFrom ? { copyFrom } : {}),
        ...(restoreJobId ? { restoreJobId } : {}),
        ...(input.embed ? { embed: input.embed } : {}),
        ...(input.schema ? { schema: input.schema } : {}),
        ...(input.sourceBackupId ? { sourceBackupId: input.sourceBackupId } : {}),
        createdAt: new Date().toISOString(),
      };
      index.port = await this.servers.open(index, 0);
      try {
        await this.inventory.putIndex(index);
      } catch (e) {
        this.inventory.indexes.delete(index.name);
        await this.servers.close(index.id);
        throw e;
      }
      await beforeCopy?.(index);
      if (copyFrom) this.startIndexCopy(index);
      return index;
    }
  }

  configureIndex(name: string, input: ConfigureInput, shape: IndexShape = indexModel): Promise<Model> {
    return this.serial.run(async () => {
      const index = this.getIndex(name);
      const next: StoredIndex = { ...index, tags: { ...index.tags } };
      if (input.deletionProtection) next.deletionProtection = input.deletionProtection;
      if (input.tags) {
        for (const [k, v] of Object.entries(input.tags)) {
          if (v === "") delete next.tags[k];
          else next.tags[k] = v;
        }
      }
      if (input.semanticField !== undefined && index.embed && input.semanticField !== index.embed.fieldMap.text) {
        throw invalid(`schema.fields.${input.semanticField} is not a semantic_text field of index ${name}; its semantic_text field is ${index.embed.fieldMap.text}.`);
      }
      if (input.readCapacity) next.spec = withReadCapacity(index, input.readCapacity);
      if (input.embed) {
        if (!index.embed) {
          throw invalid(
            `embed cannot be configured: index ${name} was not created for an embedding model, and the local service cannot convert an existing index to integrated embedding.`,
          );
        }
        if (input.embed.model !== undefined && input.embed.model !== index.embed.model) {
          throw invalid(`embed.model cannot be changed by the local service: index ${name} embeds with ${String(index.embed.model)}.`);
        }
        next.embed = { ...index.embed, ...input.embed };
      }
      if (input.pod) {
        if (!("pod" in index.spec)) throw invalid(`spec.pod cannot be configured: index ${name} is serverless.`);
        const pod = { ...index.spec.pod, ...input.pod };
        pod.pods = pod.replicas * pod.shards;
        next.spec = { pod };
      }
      await this.inventory.putIndex(next);
      return shape(next, this.hostName);
    });
  }

  deleteIndex(name: string): Promise<void> {
    return this.serial.run(async () => {
      const index = this.getIndex(name);
      if (index.deletionProtection === "enabled") {
        throw new ControlError(
          403,
          "FORBIDDEN",
          "Deletion protection is enabled for this index. Disable deletion protection before retrying.",
        );
      }
      const pending = [...this.inventory.collections.values()].filter((c) => c.source === name && c.status === "Initializing");
      if (pending.length > 0) {
        throw new ControlError(
          412,
          "FAILED_PRECONDITION",
          `Unable to delete an index. There are pending collections for this index: [${pending.map((c) => `'${c.name}'`).join(", ")}]`,
        );
      }
      await this.inventory.removeIndex(index);
      await this.servers.close(index.id);
      this.dropLater(index.space);
    });
  }

  listCollections(): Model {
    return { collections: sortedByName(this.inventory.collections).map(collectionModel) };
  }

  describeCollection(name: string): Model {
    return collectionModel(this.getCollection(name));
  }

  createCollection(name: string, source: string): Promise<Model> {
    return this.serial.run(async () => {
      if (this.inventory.collections.has(name)) throw alreadyExists(`Collection ${name} already exists.`);
      const index = this.inventory.indexes.get(source);
      if (!index) throw notFound(`Index ${source} not found.`);
      if (!("pod" in index.spec)) {
        throw invalid(
          `Serverless indexes do not support collections: index ${source} is serverless. Collections can only be created from pod-based indexes.`,
        );
      }
      if (index.state !== "Ready") throw invalid(`Index ${source} is not ready yet (state ${index.state}); wait until it is Ready.`);
      const id = randomUUID();
      const collection: StoredCollection = {
        name,
        id,
        space: `c:${id}`,
        source,
        sourceSpace: index.space,
        environment: index.spec.pod.environment,
        ...(index.dimension !== undefined ? { dimension: index.dimension } : {}),
        status: "Initializing",
        createdAt: new Date().toISOString(),
      };
      await this.inventory.putCollection(collection);
      this.startCollectionCopy(collection);
      return collectionModel(collection);
    });
  }

  deleteCollection(name: string): Promise<void> {
    return this.serial.run(async () => {
      const collection = this.getCollection(name);
      const restoring = [...this.inventory.indexes.values()].filter((i) => i.state === "Initializing" && i.copyFrom === collection.space);
      if (restoring.length > 0) {
        throw new ControlError(
          412,
          "FAILED_PRECONDITION",
          `Unable to delete a collection. There are indexes being created from this collection: [${restoring.map((i) => `'${i.name}'`).join(", ")}]`,
        );
      }
      await this.inventory.removeCollection(collection);
      this.dropLater(collection.space);
    });
  }

  private getIndex(name: string): StoredIndex {
    const index = this.inventory.indexes.get(name);
    if (!index) throw notFound(`Index ${name} not found.`);
    return index;
  }

  private getCollection(name: string): StoredCollection {
    const collection = this.inventory.collections.get(name);
    if (!collection) throw notFound(`Collection ${name} not found.`);
    return collection;
  }

  /** Drops a space whose record is already gone, once no copy touches it any more. */
  dropLater(space: string): void {
    this.jobs.run(
      [`drop:${space}`],
      async () => {
        await this.jobs.settled(space);
        await this.store.dropSpace(space);
        await this.declared?.dropSpace(space);
        await this.aliases?.dropSpace(space);
        await this.inventory.clearDrop(space);
      },
      (e) => this.log(`dropping ${space} failed (retried at the next start): ${String(e)}`),
    );
  }

  private startCollectionCopy(collection: StoredCollection): void {
    this.jobs.run(
      [collection.space, collection.sourceSpace],
      async () => {
        await this.store.dropSpace(collection.space); // a copy interrupted by a crash starts over
        const stats = await this.store.copySpace(collection.sourceSpace, collection.space);
        await this.declared?.copySpace(collection.sourceSpace, collection.space);
        await this.serial.run(async () => {
          const current = this.inventory.collections.get(collection.name);
          if (!current || current.id !== collection.id) return; // deleted meanwhile; its drop follows
          await this.inventory.putCollection({
            ...current,
            status: "Ready",
            size: stats.bytes,
            vectorCount: stats.totalVectorCount,
            ...(stats.dimension !== undefined || current.dimension !== undefined
              ? { dimension: stats.dimension ?? current.dimension }
              : {}),
          });
        });
      },
      (e) => this.log(`copying index ${collection.source} into collection ${collection.name} failed: ${String(e)}`),
    );
  }

  private startIndexCopy(index: StoredIndex): void {
    const from = index.copyFrom!;
    const restore = new RestoreProgress(this.inventory, index.restoreJobId);
    this.jobs.run(
      [index.space, from],
      async () => {
        await restore.started(this.store.spaceStats(from).totalVectorCount);
        await this.store.dropSpace(index.space);
        await this.store.copySpace(from, index.space, (copied) => restore.copied(copied));
        await this.declared?.copySpace(from, index.space);
        await this.serial.run(async () => {
          const current = this.inventory.indexes.get(index.name);
          if (!current || current.id !== index.id) return restore.finished("Failed"); // deleted meanwhile
          const { copyFrom: _done, restoreJobId: _job, ...rest } = current;
          await this.inventory.putIndex({ ...rest, state: "Ready" });
          await restore.finished("Completed");
        });
      },
      (e) => {
        this.log(`creating index ${index.name} from ${index.restoreJobId ? "a backup" : "its collection"} failed: ${String(e)}`);
        void restore.finished("Failed").catch(() => undefined);
      },
    );
  }
}

/** The index's spec with a read capacity change applied (what is left out keeps its value). */
function withReadCapacity(index: StoredIndex, change: NonNullable<ConfigureInput["readCapacity"]>): StoredIndex["spec"] {
  const spec = index.spec;
  if ("pod" in spec) throw invalid(`read_capacity cannot be configured: index ${index.name} is pod-based (scale it with deployment.replicas and deployment.pod_type).`);
  const current = "serverless" in spec ? spec.serverless.read_capacity : spec.byoc.read_capacity;
  let next: ReadCapacityRecord;
  if (change.mode === "OnDemand") {
    if ("byoc" in spec) throw invalid(`read_capacity.mode OnDemand is not supported for BYOC index ${index.name}: BYOC indexes use Dedicated read capacity.`);
    next = { mode: "OnDemand" };
  } else {
    const was = current?.mode === "Dedicated" ? current.dedicated : undefined;
    const nodeType = change.nodeType ?? was?.node_type;
    const replicas = change.manual?.replicas ?? was?.manual.replicas;
    const shards = change.manual?.shards ?? was?.manual.shards;
    if (nodeType === undefined || replicas === undefined || shards === undefined) {
      throw invalid(
        `read_capacity: index ${index.name} has OnDemand read capacity; moving it to Dedicated needs dedicated.node_type, dedicated.scaling (Manual) and dedicated.manual.replicas and shards.`,
      );
    }
    next = { mode: "Dedicated", dedicated: { node_type: nodeType, scaling: "Manual", manual: { replicas, shards } } };
  }
  return "serverless" in spec ? { serverless: { ...spec.serverless, read_capacity: next } } : { byoc: { ...spec.byoc, read_capacity: next } };
}

function sortedByName<T extends { name: string }>(map: Map<string, T>): T[] {
  return [...map.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
