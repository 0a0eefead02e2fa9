'use strict'
// What src/api/http.ts takes from undici (Agent, request, buildConnector), without the rest of undici's index: its index.js runs
// every module of the package at load (fetch, WebSocket, mock agents, caches, SQLite store…), about half of what
// the server loads before it answers. `request` is built exactly as undici's index.js builds it (makeDispatcher).
// Resolved from node_modules/undici by scripts/bundle.mjs.
const Dispatcher = require('./lib/dispatcher/dispatcher')
const Agent = require('./lib/dispatcher/agent')
const errors = require('./lib/core/errors')
const util = require('./lib/core/util')
const api = require('./lib/api')
const { getGlobalDispatcher } = require('./lib/global')
const { InvalidArgumentError } = errors

Object.assign(Dispatcher.prototype, api)

function makeDispatcher (fn) {
  return (url, opts, handler) => {
    if (typeof opts === 'function') {
      handler = opts
      opts = null
    }
    if (!url || (typeof url !== 'string' && typeof url !== 'object' && !(url instanceof URL))) {
      throw new InvalidArgumentError('invalid url')
    }
    if (opts != null && typeof opts !== 'object') {
      throw new InvalidArgumentError('invalid opts')
    }
    if (opts && opts.path != null) {
      if (typeof opts.path !== 'string') {
        throw new InvalidArgumentError('invalid opts.path')
      }
      let path = opts.path
      if (!opts.path.startsWith('/')) {
        path = `/${path}`
      }
      url = new URL(util.parseOrigin(url).origin + path)
    } else {
      if (!opts) {
        opts = typeof url === 'object' ? url : {}
      }
      url = util.parseURL(url)
    }
    const { agent, dispatcher = getGlobalDispatcher() } = opts
    if (agent) {
      throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?')
    }
    return fn.call(dispatcher, {
      ...opts,
      origin: url.origin,
      path: url.search ? `${url.pathname}${url.search}` : url.pathname,
      method: opts.method || (opts.body ? 'PUT' : 'GET')
    }, handler)
  }
}

module.exports.Agent = Agent
module.exports.Dispatcher = Dispatcher
module.exports.errors = errors
module.exports.request = makeDispatcher(api.request)
// src/api/loopback-identity.ts wraps the default connector to check loopback listeners
module.exports.buildConnector = require('./lib/core/connect')
