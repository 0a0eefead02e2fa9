// Where a tool call gets its Service. A hosted service is one fixed Service; the shared local service can go away
// mid-session (killed, or stopped by someone) and come back on another port, so its supply can hand out a fresh
// Service, and a call that failed because the one it used went away is run again once on the new one.
import { InputNeeded } from "./request-state.js";
import type { Service } from "../api/service.js";
import type { Logger } from "../log.js";
import { ErrorWithNote } from "./errors.js";

export interface ServiceSupply {
  /** The Service for the next call (the shared local service may first have to be found or started). */
  current(): Promise<Service>;
  /**
   * After a call on `used` failed: a new Service when `used` went away (the call is then retried once on it),
   * undefined when it is still there (the failure was the call's own). Throws when it went away and no new one
   * could be had.
   */
  recover(used: Service): Promise<Service | undefined>;
}

export function isServiceSupply(value: Service | ServiceSupply): value is ServiceSupply {
  return typeof (value as ServiceSupply).recover === "function";
}

export function fixedSupply(service: Service): ServiceSupply {
  return { current: async () => service, recover: async () => undefined };
}

/** A fixed Service made by `make` on its first use (again after a failed attempt); closing closes it if it was made. */
export function lazySupply(make: () => Promise<Service>): ServiceSupply & { close(): Promise<void> } {
  let made: Promise<Service> | undefined;
  const current = () =>
    (made ??= make().catch((err: unknown) => {
      made = undefined;
      throw err;
    }));
  return {
    current,
    recover: async () => undefined,
    close: async () => {
      const service = await made?.catch(() => undefined);
      await service?.close();
    },
  };
}

/** Runs a tool call on the supply's Service; when it failed because that Service went away, once more on a new one. */
export async function runWithRecovery<R extends { isError?: boolean; table: string; note?: string }>(
  tool: string,
  supply: ServiceSupply,
  run: (service: Service) => Promise<R>,
  signal: AbortSignal,
  log: Logger,
): Promise<R> {
  const used = await supply.current();
  let failure: { error: unknown } | { result: R };
  try {
    const result = await run(used);
    if (!result.isError) return result;
    failure = { result };
  } catch (error) {
    if (error instanceof InputNeeded) throw error; // a question for the client (request-state.ts), not a failure
    failure = { error };
  }
  const original = (): R => {
    if ("error" in failure) throw failure.error;
    return failure.result;
  };
  if (signal.aborted) return original();
  let fresh: Service | undefined;
  try {
    fresh = await supply.recover(used);
  } catch (why) {
    const note =
      `The local service went away during this call and a new one could not be started (${(why as Error).message}); ` +
      `the call was not retried. What the result above says landed, landed.`;
    if ("result" in failure) return { ...failure.result, table: `${failure.result.table}\n\n${note}` };
    throw new ErrorWithNote(failure.error, note);
  }
  if (!fresh) return original();
  log.info(`${tool}: the local service went away during the call; retrying it once on the new one`);
  let retried: R;
  try {
    retried = await run(fresh);
  } catch (error) {
    throw new ErrorWithNote(error, `${RETRIED} It failed on the new one too.`);
  }
  return { ...retried, note: retried.note ? `${RETRIED}\n${retried.note}` : RETRIED };
}

/** What a result run a second time says: the model must not take it for one uneventful run. */
const RETRIED =
  "Retried: the local service stopped answering during this call (it went away, and a new one was started); the call was run again from the start on the new one, and this is the second run's result. A write's records were all sent again.";
