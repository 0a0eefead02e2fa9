// Plain HTTP calls to the local service for tests that check exact statuses and bodies.
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown; // parsed JSON, the raw text when not JSON, undefined when empty
}

export async function call(
  url: string,
  init: { method?: string; body?: unknown; apiKey?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.apiKey) headers["Api-Key"] = init.apiKey;
  let body: string | Buffer | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === "string" || Buffer.isBuffer(init.body) ? init.body : JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(url, { method: init.method ?? "GET", headers, body });
  const text = await res.text();
  let parsed: unknown = text === "" ? undefined : text;
  try {
    if (text !== "") parsed = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** A client bound to one running service's control plane and key. */
export function controlClient(controlUrl: string, apiKey: string) {
  return (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    call(`${controlUrl}${path}`, { method, body, apiKey, ...(headers ? { headers } : {}) });
}

export const controlError = (status: number, code: string, message: string) => ({ status, error: { code, message } });

/** Polls GET `path` until its body's status (collections) or status.ready (indexes) says ready. */
export async function waitReady(api: ReturnType<typeof controlClient>, path: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 500; i++) {
    const body = (await api("GET", path)).body as Record<string, unknown>;
    const status = body?.status as unknown;
    if (status === "Ready" || (typeof status === "object" && status !== null && (status as { ready?: boolean }).ready)) return body;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${path} never became ready`);
}
