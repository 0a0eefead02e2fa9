// The one object the tools get, by resource as the official client has it: the control plane (indexes, collections,
// configure, backups, restore jobs), the data plane (vectors, records, namespaces, imports), inference, and the cache
// of index hosts, sharing one HTTP client and its keep-alive agent.
import { ControlPlane } from "./control.js";
import { DataPlane } from "./data.js";
import { Documents } from "./documents.js";
import { HostResolver } from "./index-hosts.js";
import { HttpClient, type HttpSettings } from "./http.js";
import { Inference } from "./inference.js";
import { isLoopbackHost } from "../common/loopback.js";

export interface Service {
  http: HttpClient;
  control: ControlPlane;
  /** Calls on an index's host. */
  data: DataPlane;
  hosts: HostResolver;
  /** /embed, /rerank, /models on the control-plane origin. */
  inference: Inference;
  /** The control plane's origin (scheme, host, port): two Services with the same one reach the same service. */
  origin: string;
  /** The documents API (2026-07): schema indexes and their documents. */
  documents: Documents;
  close(): Promise<void>;
}

/**
 * `localService`: the controller is the embedded local service, whose listeners must always prove they hold the key.
 * With another loopback controller they must too, unless it does not know the proof at all (not our service).
 */
export function createService(settings: HttpSettings & { controllerUrl: string; localService?: boolean }): Service {
  const { controllerUrl, localService = false, ...httpSettings } = settings;
  const controllerOrigin = new URL(controllerUrl).origin;
  const loopback = isLoopbackHost(new URL(controllerUrl).hostname);
  const http = new HttpClient({
    ...httpSettings,
    ...((localService || loopback) && { loopbackIdentity: { initial: localService ? "ours" : "unknown", controllerOrigin } }),
  });
  const control = new ControlPlane(http, controllerUrl);
  const data = new DataPlane(http, controllerUrl);
  const hosts = new HostResolver(control, (model) => control.untrustHost(model));
  const inference = new Inference(http, controllerUrl);
  const documents = new Documents(http, controllerUrl);
  return { http, control, data, hosts, inference, documents, origin: controllerOrigin, close: () => http.close() };
}
