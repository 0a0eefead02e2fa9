// The registry: every tool the server offers, in the order tools/list shows them.
import type { AnyTool } from "../src/tool.js";
import createCollection from "./create_collection.js";
import listCollections from "./list_collections.js";
import listIndexes from "./list_indexes.js";
import upsertVectors from "./upsert_vectors.js";

export const tools: readonly AnyTool[] = [listIndexes, listCollections, createCollection, upsertVectors];
