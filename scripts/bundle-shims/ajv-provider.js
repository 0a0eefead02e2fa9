// The SDK's validation/ajv-provider.js, with the Ajv instance made on first use instead of when the server is
// constructed: a server validates JSON Schemas only for elicitation, which this one never asks for, and Ajv with
// its formats is a tenth of the startup code. `require` (not `import`) keeps ajv's module bodies from running at
// load. Resolved from the SDK's dist/esm/validation/ by scripts/bundle.mjs.
function createDefaultAjvInstance() {
  const Ajv = require("ajv");
  const addFormats = require("ajv-formats");
  const ajv = new (Ajv.default ?? Ajv)({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
  (addFormats.default ?? addFormats)(ajv);
  return ajv;
}

export class AjvJsonSchemaValidator {
  constructor(ajv) {
    this._given = ajv;
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
