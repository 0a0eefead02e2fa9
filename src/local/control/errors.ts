// Control-plane errors, in the real service's shape: {"status": 404, "error": {"code": "NOT_FOUND", "message": "…"}}.

export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  toBody(): { status: number; error: { code: string; message: string } } {
    return { status: this.status, error: { code: this.code, message: this.message } };
  }
}

export const invalid = (message: string) => new ControlError(400, "INVALID_ARGUMENT", message);
export const unprocessable = (message: string) =>
  new ControlError(422, "UNPROCESSABLE_ENTITY", `Failed to deserialize the JSON body into the target type: ${message}`);
export const notFound = (message: string) => new ControlError(404, "NOT_FOUND", message);
export const alreadyExists = (message: string) => new ControlError(409, "ALREADY_EXISTS", message);
export const unauthenticated = () => new ControlError(401, "UNAUTHENTICATED", "Invalid API Key");
