'use strict'
// undici as src/api/http.ts uses it (new Agent(options), agent.close(), agent.destroy(), request(url, { dispatcher })),
// with undici itself loaded on the first request instead of at start: the server builds its Agent before it answers
// `initialize`, and loading undici (with node:http2, node:tls, node:net…) is a tenth of the time to `tools/list`.
// `require` inside functions: esbuild bundles the code but runs its module bodies only when first called.
let undici
const load = () => (undici ??= require('./vecdb-slim-index.js'))

class Agent {
  #options
  #agent
  constructor (options) {
    this.#options = options
  }

  get dispatcher () {
    return (this.#agent ??= new (load().Agent)(this.#options))
  }

  dispatch (options, handler) {
    return this.dispatcher.dispatch(options, handler)
  }

  // An agent that never sent a request has nothing to close.
  close (...args) {
    if (this.#agent) return this.#agent.close(...args)
    const callback = args.find((arg) => typeof arg === 'function')
    if (callback) return void queueMicrotask(() => callback(null, null))
    return Promise.resolve()
  }

  destroy (...args) {
    if (this.#agent) return this.#agent.destroy(...args)
    const callback = args.find((arg) => typeof arg === 'function')
    if (callback) return void queueMicrotask(() => callback(null, null))
    return Promise.resolve()
  }
}

function request (url, options, handler) {
  const dispatcher = options?.dispatcher
  const real = dispatcher instanceof Agent ? { ...options, dispatcher: dispatcher.dispatcher } : options
  return load().request(url, real, handler)
}

module.exports = {
  Agent,
  request,
  get Dispatcher () { return load().Dispatcher },
  get errors () { return load().errors }
}
