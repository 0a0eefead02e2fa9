// The one object the tools get: HTTP client, both planes and the host cache, sharing one keep-alive agent.
import { ControlPlane } from "./control.js";
import { DataPlane } from "./data.js";
import { HostResolver } from "./hosts.js";
import { HttpClient, type HttpSettings } from "./http.js";
import { Inference } from "./inference.js";

export interface Service {
  http: HttpClient;
  control: ControlPlane;
  data: DataPlane;
  hosts: HostResolver;
  /** /embed, /rerank, /models on the control-plane origin. */
  inference: Inference;
  close(): Promise<void>;
}

export function createService(settings: HttpSettings & { controllerUrl: string }): Service {
  const { controllerUrl, ...httpSettings } = settings;
  const http = new HttpClient(httpSettings);
  const control = new ControlPlane(http, controllerUrl);
  const data = new DataPlane(http, controllerUrl);
  const hosts = new HostResolver(control);
  const inference = new Inference(http, controllerUrl);
  return { http, control, data, hosts, inference, close: () => http.close() };
}
