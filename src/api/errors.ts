// Error types of the client side. ServiceError is what the service answered (status, code, message); the others are
// the client's own findings (a host not trusted, an index not ready, an answer of the wrong shape). src/mcp/errors.ts
// turns each into the text the model reads.

export interface ServiceErrorInit {
  status: number | undefined;
  code: string | undefined;
  serviceMessage: string;
  url: string;
  method: string;
  attempts: number;
}

/** A call to the service that finally failed: an HTTP error answer, or no answer at all (status undefined). */
export class ServiceError extends Error {
  readonly status: number | undefined; // undefined: no HTTP answer (refused, reset, timeout)
  readonly code: string | undefined; // service code, e.g. "NOT_FOUND", or the data plane's numeric code as a string
  readonly serviceMessage: string; // the service's message, with the API key redacted
  readonly url: string; // the URL called (never contains the key)
  readonly method: string;
  readonly attempts: number; // how many times the request was sent (1 = no retry)

  constructor(init: ServiceErrorInit) {
    const head = init.status === undefined ? "no answer" : `HTTP ${init.status}`;
    // The data plane's gRPC number ("3") says nothing the status does not; a name ("NOT_FOUND") is kept.
    const code = init.code === undefined || /^\d+$/.test(init.code) ? "" : ` ${init.code}`;
    super(`${head}${code}: ${init.serviceMessage} (${init.method} ${init.url})`);
    this.name = "ServiceError";
    this.status = init.status;
    this.code = init.code;
    this.serviceMessage = init.serviceMessage;
    this.url = init.url;
    this.method = init.method;
    this.attempts = init.attempts;
  }
}

/** Refused before sending: the URL's origin is neither the controller nor a host the control plane returned. */
export class UntrustedHostError extends Error {
  readonly url: string;
  constructor(url: string) {
    super(
      `Refusing to send the API key to ${url}: it is neither the control-plane origin nor a host the control plane returned.`,
    );
    this.name = "UntrustedHostError";
    this.url = url;
  }
}

/** The index exists but cannot take writes yet (status.ready false). */
export class IndexNotReadyError extends Error {
  readonly index: string;
  readonly state: string;
  constructor(index: string, state: string) {
    super(
      `Index '${index}' is not ready (state ${state}). Wait until list_indexes shows it Ready, then try again.`,
    );
    this.name = "IndexNotReadyError";
    this.index = index;
    this.state = state;
  }
}

/** The service answered 2xx with a body that is not what the API promises. */
export class ResponseShapeError extends Error {
  readonly url: string;
  constructor(url: string, detail: string) {
    super(`Unexpected answer from ${url}: ${detail}`);
    this.name = "ResponseShapeError";
    this.url = url;
  }
}
