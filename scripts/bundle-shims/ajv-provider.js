// The SDK's validation/ajv-provider.js, with Ajv (and its formats) in a chunk of their own instead of on the startup
// path, where they were a fifth of the code read before `tools/list` is answered. The SDK's server uses this
// validator in one place only: checking a client's answer to a form elicitation (Server.elicitInput), which this
// server sends before a destructive call. Ajv is loaded in the background a moment after start, and
// src/mcp/elicit.ts awaits the load (through the global below) before it asks, so the validator is always ready
// when the answer arrives. Resolved from the SDK's dist/esm/validation/ by scripts/bundle.mjs.
let ajvModules;
let loading;
const load = () =>
  (loading ??= Promise.all([import("ajv"), import("ajv-formats")]).then(([ajv, formats]) => (ajvModules = { ajv, formats })));
globalThis[Symbol.for("vecdb-mcp.loadAjv")] = load;

function createDefaultAjvInstance() {
  if (!ajvModules) throw new Error("the JSON Schema validator (Ajv) is still loading; try again");
  const Ajv = ajvModules.ajv.default?.default ?? ajvModules.ajv.default ?? ajvModules.ajv;
  const addFormats = ajvModules.formats.default?.default ?? ajvModules.formats.default ?? ajvModules.formats;
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

export class AjvJsonSchemaValidator {
  constructor(ajv) {
    this._given = ajv;
    if (!ajv) setTimeout(() => void load().catch(() => {}), 1000).unref();
  }
  get _ajv() {
    return (this._given ??= createDefaultAjvInstance());
  }
  getValidator(schema) {
    const ajvValidator =
      "$id" in schema && typeof schema.$id === "string"
        ? (this._ajv.getSchema(schema.$id) ?? this._ajv.compile(schema))
        : this._ajv.compile(schema);
    return (input) => {
      const valid = ajvValidator(input);
      if (valid) return { valid: true, data: input, errorMessage: undefined };
      return { valid: false, data: undefined, errorMessage: this._ajv.errorsText(ajvValidator.errors) };
    };
  }
}
