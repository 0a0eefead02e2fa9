// The one object the tools get: HTTP client, both planes and the host cache, sharing one keep-alive agent.
import { ControlPlane } from "./control.js";
import { AdminControl } from "./admin-control.js";
import { AdminData } from "./admin-data.js";
import { DataPlane } from "./data.js";
import { HostResolver } from "./hosts.js";
import { HttpClient, type HttpSettings } from "./http.js";
import { Inference } from "./inference.js";
import { isLoopbackHostname } from "./loopback-identity.js";

export interface Service {
  http: HttpClient;
  control: ControlPlane;
  data: DataPlane;
  hosts: HostResolver;
  /** Configure, backups and restore jobs (control plane). */
  admin: AdminControl;
  /** Namespaces, update, fetch by metadata, bulk imports (on an index's host). */
  adminData: AdminData;
  /** /embed, /rerank, /models on the control-plane origin. */
  inference: Inference;
  close(): Promise<void>;
}

/**
 * `localService`: the controller is the embedded local service, whose listeners must always prove they hold the key.
 * With another loopback controller they must too, unless it does not know the proof at all (not our service).
 */
export function createService(settings: HttpSettings & { controllerUrl: string; localService?: boolean }): Service {
  const { controllerUrl, localService = false, ...httpSettings } = settings;
  const controllerOrigin = new URL(controllerUrl).origin;
  const loopback = isLoopbackHostname(new URL(controllerUrl).hostname);
  const http = new HttpClient({
    ...httpSettings,
    ...((localService || loopback) && { loopbackIdentity: { initial: localService ? "ours" : "unknown", controllerOrigin } }),
  });
  const control = new ControlPlane(http, controllerUrl);
  const data = new DataPlane(http, controllerUrl);
  const hosts = new HostResolver(control, (model) => control.untrustHost(model));
  const admin = new AdminControl(http, controllerUrl);
  const adminData = new AdminData(http, controllerUrl);
  const inference = new Inference(http, controllerUrl);
  return { http, control, data, hosts, admin, adminData, inference, close: () => http.close() };
}
