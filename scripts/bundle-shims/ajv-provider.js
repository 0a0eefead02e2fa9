// The SDK v2's AjvJsonSchemaValidator (its server's dist/ajvProvider-*.mjs, Ajv bundled in: a third of the SDK's code
// read before `tools/list` is answered) in a chunk of its own instead of on the startup path. The SDK's server uses
// this validator in one place only: checking a 2025-era client's answer to a form elicitation (Server.elicitInput),
// which this server sends before a destructive call. The real module is loaded in the background a moment after
// start, and src/mcp/elicit.ts awaits the load (through the global below) before it asks, so the validator is always
// ready when the answer arrives. scripts/bundle.mjs substitutes this file for the import of the SDK's shimsNode.mjs
// and fills in the real module's name.
let Real;
let loading;
const load = () => (loading ??= import("__VECDB_REAL_AJV_PROVIDER__").then((m) => (Real = m.n)));
globalThis[Symbol.for("vecdb-mcp.loadAjv")] = load;

class AjvJsonSchemaValidator {
  constructor(ajv) {
    this._given = ajv;
    if (!ajv) setTimeout(() => void load().catch(() => {}), 1000).unref();
  }
  get _inner() {
    if (!Real) throw new Error("the JSON Schema validator (Ajv) is still loading; try again");
    return (this._real ??= new Real(this._given));
  }
  getValidator(schema) {
    return this._inner.getValidator(schema);
  }
}

export { AjvJsonSchemaValidator as n };
