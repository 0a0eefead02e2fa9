// The services a tool may name besides the one it runs on: copy_index reads from one and writes to another. Names,
// never keys or URLs, travel in arguments: "main" (the service this server was started for), "local" (the embedded
// local service, there even when main is hosted) and "other" (a second service set up by VECDB_OTHER_API_KEY and
// --other-host). The server (src/named-services.ts) decides what each name reaches.
import type { Service } from "../api/service.js";

export const SERVICE_NAMES = ["main", "local", "other"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface NamedService {
  name: ServiceName;
  service: Service;
  /** Where it is, for results and for telling two names apart: "the hosted service at https://api.pinecone.io". */
  where: string;
  /** Stays the same across restarts (the local service's port does not): what a copy's checkpoint is filed under. */
  key: string;
}

export interface ServiceDirectory {
  /** The service of that name (the local one may first be found or started). Throws ToolError when there is none. */
  get(name: ServiceName, signal?: AbortSignal): Promise<NamedService>;
}
