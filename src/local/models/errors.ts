// A model could not do what was asked: the status and code the API answers with, and a message naming why.
export class ModelError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
