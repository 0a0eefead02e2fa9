// The one object the tools get: HTTP client, both planes and the host cache, sharing one keep-alive agent.
import { ControlPlane } from "./control.js";
import { AdminControl } from "./admin-control.js";
import { AdminData } from "./admin-data.js";
import { DataPlane } from "./data.js";
import { HostResolver } from "./hosts.js";
import { HttpClient, type HttpSettings } from "./http.js";

export interface Service {
  http: HttpClient;
  control: ControlPlane;
  data: DataPlane;
  hosts: HostResolver;
  /** Configure, backups and restore jobs (control plane). */
  admin: AdminControl;
  /** Namespaces, update, fetch by metadata, bulk imports (on an index's host). */
  adminData: AdminData;
  close(): Promise<void>;
}

export function createService(settings: HttpSettings & { controllerUrl: string }): Service {
  const { controllerUrl, ...httpSettings } = settings;
  const http = new HttpClient(httpSettings);
  const control = new ControlPlane(http, controllerUrl);
  const data = new DataPlane(http, controllerUrl);
  const hosts = new HostResolver(control);
  const admin = new AdminControl(http, controllerUrl);
  const adminData = new AdminData(http, controllerUrl);
  return { http, control, data, hosts, admin, adminData, close: () => http.close() };
}
