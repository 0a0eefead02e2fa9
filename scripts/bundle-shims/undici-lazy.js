// undici as src/api/http.ts uses it — new Agent(options), agent.close(), agent.destroy(), await request(url,
// { dispatcher }), and buildConnector(options) for src/api/loopback-identity.ts — with undici itself in a chunk of its own, loaded on the first request: the server builds its
// Agent before it answers `initialize`, and undici (a third of the code, plus node:http2, node:tls…) is then neither
// compiled nor run by a server that is only asked for its tools. Any other import from "undici" fails the build
// (no such export here) rather than misbehaving.
let undici;
let loading;
const load = () => (loading ??= import("./vecdb-slim-index.js").then((mod) => (undici = mod.default ?? mod)));

export class Agent {
  #options;
  #agent;
  constructor(options) {
    this.#options = options;
  }

  async dispatcher() {
    await load();
    return (this.#agent ??= new undici.Agent(this.#options));
  }

  // An agent that never sent a request has nothing to close.
  close() {
    return this.#agent ? this.#agent.close() : Promise.resolve();
  }

  destroy(err) {
    return this.#agent ? this.#agent.destroy(err) : Promise.resolve();
  }
}

export async function request(url, options) {
  const given = options?.dispatcher;
  const real = given instanceof Agent ? { ...options, dispatcher: await given.dispatcher() } : options;
  await load();
  return undici.request(url, real);
}

// The connector is built at once but undici's is made on the first connection, which comes after a request has
// loaded undici.
export function buildConnector(options) {
  let real;
  return (opts, callback) => {
    if (real) return real(opts, callback);
    load().then(
      () => {
        real ??= undici.buildConnector(options);
        real(opts, callback);
      },
      (err) => callback(err, null),
    );
  };
}
