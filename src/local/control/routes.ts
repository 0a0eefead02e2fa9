// The control plane's HTTP routes: /indexes and /collections, errors in the control-plane shape.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ControlError, invalid, unauthenticated } from "./errors.js";
import { answerIdentity, apiKeyMatches, readBody, requestUrl, sendJson, sendPlainUnauthorized, sendTooLargeAndClose } from "../http-util.js";
import type { ControlOperations, IndexShape } from "./operations.js";
import { indexModel } from "./records.js";
import { indexModel2026_07 } from "./index-model-2026-07.js";
import { parseCreateWithSchema } from "./create-with-schema.js";
import { parseConfigure2026_07 } from "./configure-2026-07.js";
import { requestApiVersion, type ApiVersion } from "../api-version.js";
import type { Backups } from "./backups.js";
import type { BackupSchedules } from "./backup-schedules.js";
import { parseConfigure, parseCreateCollection, parseCreateIndex, parseJsonObject } from "./validate.js";
import { parseCreateForModel } from "./create-for-model.js";
import { inferenceRoutes } from "../inference/routes.js";
import type { Models } from "../models/available-models.js";

const CONTROL_BODY_LIMIT = 1024 * 1024;

type Handler = (ctx: {
  name: string;
  query: URLSearchParams;
  body: () => Promise<Record<string, unknown>>;
  version: ApiVersion;
}) => Promise<[number, unknown]>;

/** How this request's API version describes an index. */
const shapeOf = (version: ApiVersion): IndexShape => (version === "2026-07" ? indexModel2026_07 : indexModel);

interface Route {
  pattern: RegExp;
  methods: Record<string, Handler>;
}

/** Backup schedules (2026-07 only: older versions have no such routes). */
function backupScheduleRoutes(schedules: BackupSchedules): Route[] {
  const only2026_07 = (handler: Handler): Handler => async (ctx) => {
    if (ctx.version !== "2026-07") throw new ControlError(404, "NOT_FOUND", "Backup schedules need API version 2026-07: send the header X-Pinecone-Api-Version: 2026-07.");
    return handler(ctx);
  };
  return [
    {
      pattern: /^\/indexes\/([^/]+)\/backup-schedules\/?$/,
      methods: {
        GET: only2026_07(async ({ name, query }) => [200, schedules.list(name, query)]),
        POST: only2026_07(async ({ name, body }) => [200, await schedules.create(name, await body())]),
      },
    },
    {
      pattern: /^\/backup-schedules\/([^/]+)\/?$/,
      methods: {
        GET: only2026_07(async ({ name }) => [200, schedules.describe(name)]),
        PATCH: only2026_07(async ({ name, body }) => [200, await schedules.update(name, await body())]),
        DELETE: only2026_07(async ({ name }) => [204, await schedules.delete(name)]),
      },
    },
    { pattern: /^\/backup-schedules\/([^/]+)\/history\/?$/, methods: { GET: only2026_07(async ({ name, query }) => [200, schedules.history(name, query)]) } },
  ];
}

/** Backups of serverless indexes and the restore jobs that make indexes of them (2025-04 and later). */
function backupRoutes(backups: Backups): Route[] {
  return [
    {
      pattern: /^\/indexes\/([^/]+)\/backups\/?$/,
      methods: {
        GET: async ({ name, query, version }) => [200, backups.list(query, name, version)],
        // 2026-07 answers a created backup with 200 (201 before).
        POST: async ({ name, body, version }) => [version === "2026-07" ? 200 : 201, await backups.create(name, await body(), version)],
      },
    },
    { pattern: /^\/backups\/?$/, methods: { GET: async ({ query, version }) => [200, backups.list(query, undefined, version)] } },
    {
      pattern: /^\/backups\/([^/]+)\/?$/,
      methods: {
        GET: async ({ name, version }) => [200, backups.describe(name, version)],
        DELETE: async ({ name }) => [202, await backups.delete(name)],
      },
    },
    {
      pattern: /^\/backups\/([^/]+)\/create-index\/?$/,
      methods: { POST: async ({ name, body }) => [202, await backups.createIndex(name, await body())] },
    },
    { pattern: /^\/restore-jobs\/?$/, methods: { GET: async ({ query, version }) => [200, backups.listRestoreJobs(query, version)] } },
    { pattern: /^\/restore-jobs\/([^/]+)\/?$/, methods: { GET: async ({ name }) => [200, backups.describeRestoreJob(name)] } },
  ];
}

function routes(operations: ControlOperations, models: Models): Route[] {
  return [
    {
      pattern: /^\/indexes\/create-for-model\/?$/,
      methods: {
        POST: async ({ body, version }) => [201, await operations.createIndex(await parseCreateForModel(await body(), models), shapeOf(version))],
      },
    },
    {
      pattern: /^\/indexes\/?$/,
      methods: {
        GET: async ({ version }) => [200, operations.listIndexes(shapeOf(version))],
        POST: async ({ body, version }) => {
          const input = version === "2026-07" ? parseCreateWithSchema(await body()) : parseCreateIndex(await body());
          return [201, await operations.createIndex(input, shapeOf(version))];
        },
      },
    },
    {
      pattern: /^\/indexes\/([^/]+)\/?$/,
      methods: {
        GET: async ({ name, version }) => [200, operations.describeIndex(name, shapeOf(version))],
        DELETE: async ({ name }) => [202, await operations.deleteIndex(name)],
        PATCH: async ({ name, body, version }) =>
          version === "2026-07"
            ? [200, await operations.configureIndex(name, parseConfigure2026_07(await body()), indexModel2026_07)]
            : [202, await operations.configureIndex(name, parseConfigure(await body()))],
      },
    },
    {
      pattern: /^\/collections\/?$/,
      methods: {
        GET: async () => [200, operations.listCollections()],
        POST: async ({ body }) => {
          const { name, source } = parseCreateCollection(await body());
          return [201, await operations.createCollection(name, source)];
        },
      },
    },
    {
      pattern: /^\/collections\/([^/]+)\/?$/,
      methods: {
        GET: async ({ name }) => [200, operations.describeCollection(name)],
        DELETE: async ({ name }) => [202, await operations.deleteCollection(name)],
      },
    },
    ...inferenceRoutes(models),
  ];
}

class TooLarge extends Error {}
/** The client went away before its body arrived: there is no one left to answer, and nothing to log. */
class Aborted extends Error {}

export function controlPlaneHandler(
  operations: ControlOperations,
  apiKey: string,
  log: (line: string) => void,
  models: Models,
  backups?: Backups,
  schedules?: BackupSchedules,
) {
  const table = [...routes(operations, models), ...(backups ? backupRoutes(backups) : []), ...(schedules ? backupScheduleRoutes(schedules) : [])];
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? "GET";
    try {
      if (answerIdentity(req, res, apiKey)) return;
      if (!apiKeyMatches(req, apiKey)) {
        // (inference keeps its JSON 401 under 2026-07)
        const inference = /^\/(embed|rerank|models)(\/|$)/.test(requestUrl(req)?.pathname ?? "");
        if (requestApiVersion(req.headers) === "2026-07" && !inference) return sendPlainUnauthorized(res);
        throw unauthenticated();
      }
      const url = requestUrl(req);
      if (!url) throw invalid(`The request target ${JSON.stringify(req.url)} is not a valid URL path.`);
      const pathname = url.pathname;
      const route = table.find((r) => r.pattern.test(pathname));
      if (!route) throw new ControlError(404, "NOT_FOUND", `Unknown route: ${method} ${pathname}`);
      const handler = route.methods[method];
      if (!handler) {
        const allowed = Object.keys(route.methods).join(", ");
        res.setHeader("allow", allowed);
        throw new ControlError(405, "UNIMPLEMENTED", `Method ${method} is not allowed on ${pathname}; allowed: ${allowed}.`);
      }
      let name = "";
      const raw = route.pattern.exec(pathname)?.[1];
      if (raw !== undefined) {
        try {
          name = decodeURIComponent(raw);
        } catch {
          throw invalid(`The name in the path ${pathname} is not valid percent-encoding.`);
        }
      }
      const body = async () => {
        const read = await readBody(req, CONTROL_BODY_LIMIT);
        if (!read.ok) throw read.reason === "too-large" ? new TooLarge() : new Aborted();
        return parseJsonObject(read.body);
      };
      const [status, payload] = await handler({ name, query: url.searchParams, body, version: requestApiVersion(req.headers) });
      sendJson(res, status, payload);
    } catch (e) {
      if (e instanceof Aborted) {
        // the connection is gone or closing (see answerClientErrors); nothing to send
      } else if (e instanceof TooLarge) {
        sendTooLargeAndClose(req, res, new ControlError(413, "INVALID_ARGUMENT", `Request body is larger than the limit of ${CONTROL_BODY_LIMIT} bytes.`).toBody());
      } else if (e instanceof ControlError) {
        sendJson(res, e.status, e.toBody());
      } else {
        log(`control plane error on ${method} ${req.url}: ${(e as Error).stack ?? String(e)}`);
        sendJson(res, 500, { status: 500, error: { code: "UNKNOWN", message: "Internal server error" } });
      }
    }
  };
}
