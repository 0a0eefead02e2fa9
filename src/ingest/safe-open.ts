// The safe open lives in src/shared (the local service's bulk import uses it too); the ingest modules import it here.
export * from "../shared/safe-open.js";
