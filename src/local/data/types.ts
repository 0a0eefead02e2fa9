import type { VectorStore } from "../storage/store.js";

export interface DataPlaneIndex { name: string; space: string; dimension: number;
  metric: "cosine" | "euclidean" | "dotproduct"; vectorType: "dense" | "sparse";
  /** The metadata fields filters may name (serverless schema, pod metadata_config.indexed); undefined: all. */
  filterable?: string[];
  /** read_capacity mode Dedicated (dedicated read nodes): the query tuning fields scanFactor, maxCandidates apply. */
  dedicatedReads?: boolean }
export interface DataPlaneRequest { method: string; pathname: string; query: URLSearchParams; body: Buffer }
export interface DataPlaneResponse { status: number; body: unknown }   // body is JSON-serialised by L1

export interface RouteContext { req: DataPlaneRequest; index: DataPlaneIndex; store: VectorStore }
export type Route = (ctx: RouteContext) => Promise<unknown> | unknown;
