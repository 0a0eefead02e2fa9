// What the names of src/tool-kit/named-services.ts reach on this server: "main" is the service the tools run on;
// "local" is the embedded local service — main itself when main is local, otherwise the shared local service of the
// data dir, found or started on first use; "other" is the second service of VECDB_OTHER_API_KEY and --other-host,
// made on first use. Under --indexes each is scoped as main is.
import type { Service } from "./api/service.js";
import type { Config } from "./config.js";
import type { ServiceSupply } from "./mcp/service-supply.js";
import { scopedService } from "./mcp/access.js";
import { ToolError } from "./tool-kit/tool-error.js";
import type { NamedService, ServiceDirectory, ServiceName } from "./tool-kit/named-services.js";

export interface NamedServicesOptions {
  config: Config;
  /** Where main's calls go. */
  main: ServiceSupply;
  /** The shared local service's supply, when main is hosted (started on first use). */
  startLocal: () => Promise<ServiceSupply & { close(): Promise<void> }>;
}

export function namedServices(opts: NamedServicesOptions): ServiceDirectory & { close(): Promise<void> } {
  const { config } = opts;
  const mainIsLocal = config.mode === "local";
  let local: Promise<ServiceSupply & { close(): Promise<void> }> | undefined;
  let other: Service | undefined;
  const scoped = (service: Service) => scopedService(service, config.indexes);
  const localWhere = (service: Service) => `the local service at ${service.origin}`;

  const find = async (name: ServiceName): Promise<NamedService> => {
    if (name === "main" || (name === "local" && mainIsLocal)) {
      const service = await opts.main.current();
      return {
        name,
        service: scoped(service),
        where: mainIsLocal ? localWhere(service) : `the service at ${service.origin}`,
        key: mainIsLocal ? `local ${config.dataDir}` : service.origin,
      };
    }
    if (name === "local") {
      local ??= opts.startLocal();
      const service = await (await local).current();
      return { name, service: scoped(service), where: localWhere(service), key: `local ${config.dataDir}` };
    }
    if (config.otherApiKey === undefined) {
      throw new ToolError({
        problem: 'There is no second service: "other" names the service of VECDB_OTHER_API_KEY (and --other-host / VECDB_OTHER_HOST), and this server was started without it',
        next: 'tell the user: set VECDB_OTHER_API_KEY (and VECDB_OTHER_HOST for a service other than https://api.pinecone.io) and restart the server; or name "main" or "local".',
      });
    }
    const { createService } = await import("./api/service.js"); // off the server's startup path (main.ts says why)
    other ??= createService({
      apiKey: config.otherApiKey,
      apiVersion: config.apiVersion,
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      controllerUrl: config.otherControllerUrl,
    });
    return { name, service: scoped(other), where: `the service at ${other.origin}`, key: other.origin };
  };

  return {
    get: (name) => find(name),
    async close() {
      await other?.close().catch(() => {});
      await (await local?.catch(() => undefined))?.close().catch(() => {});
    },
  };
}
