/**
 * Bringing one upstream up: the first start, a lazy restart on the next call after a crash, a
 * start after a login, each connecting and listing every page within one time limit; and what
 * the connection reports meanwhile (it closed, its tools changed). When a restart may be tried is
 * restart-gate.ts; the states and their moves are upstream-state.ts.
 */
import {
  closeConnection,
  openConnection,
  sdkOf,
  type UpstreamConnection,
} from "./upstream-connect.js";
import { upstreamErrorText } from "./upstream-errors.js";
import { listFrom, publish, retryingLogin, type UpstreamRun } from "./upstream-run.js";

/** The connection closed under a ready server: it is down until the next call restarts it. */
export function connectionLost(run: UpstreamRun, connection: UpstreamConnection): void {
  if (run.connection !== connection) return;
  run.connection = undefined;
  // during a start the listing fails on its own and the start says why
  if (!run.life.can("lost")) return;
  run.life.advance("lost");
  run.gate.failed(false);
  run.lastError = "the connection closed (the process exited or the server hung up)";
  run.log({ level: "warn", server: run.name, message: `Server went down: ${run.lastError}.` });
}

/** Re-lists the tools on `notifications/tools/list_changed`, one listing at a time: a change
 * announced during a listing asks for one more after it, so a burst of announcements costs two
 * listings, not one each (2,000 at once were 2,001 concurrent `tools/list`), and the last listing
 * always starts after the last announcement, so an older answer never lands last. */
export function relistInto(run: UpstreamRun, connection: UpstreamConnection): Promise<void> {
  if (run.relisting) {
    // the newest announcer's connection is the one to list (a restart may have replaced it)
    run.relistAgain = connection;
    return run.relisting;
  }
  run.relisting = (async () => {
    try {
      for (let next: UpstreamConnection | undefined = connection; next; next = run.relistAgain) {
        run.relistAgain = undefined;
        await relistOnce(run, next);
      }
    } finally {
      run.relisting = undefined;
    }
  })();
  return run.relisting;
}

/** One re-listing; a failure is a warning. */
async function relistOnce(run: UpstreamRun, connection: UpstreamConnection): Promise<void> {
  // servers announce list_changed several times as they start: said once per connection, the
  // rest at debug level, so a start logs one line and not four
  const level = run.announcedFor === connection ? "debug" : "info";
  run.announcedFor = connection;
  run.log({ level, server: run.name, message: "tools/list_changed: re-listing." });
  try {
    publish(run, await listFrom(run, sdkOf(connection)));
  } catch (error) {
    run.log({ level: "warn", server: run.name, message: `Re-listing failed: ${String(error)}` });
  }
}

/** Connects and lists every page, all within one limit: a slow pager cannot stretch it. */
async function connectAndList(run: UpstreamRun): Promise<void> {
  const opened: (() => Promise<void>)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error("start timeout"), {
            code: "start_timeout",
            limitMs: run.startTimeoutMs,
          }),
        ),
      run.startTimeoutMs,
    );
  });
  const work = (async () => {
    const connection = await openConnection({
      ...run.hooks,
      opened: (close) => opened.push(close),
    });
    run.connection = connection;
    // a step-up (401 on tools/list) finishes an interactive login too, like the handshake's
    const list = () => listFrom(run, sdkOf(connection));
    publish(run, await retryingLogin(run, list));
  })();
  try {
    await Promise.race([work, limit]);
  } catch (error) {
    run.connection = undefined;
    // a half-started process must not outlive the failed (or abandoned) attempt
    await Promise.all(opened.map((close) => close().catch(() => undefined)));
    work.catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** One start (first or restart): `starting`/`restarting` → `ready`, or `down` with the reason. */
async function startOnce(run: UpstreamRun, event: "start" | "restart" | "loggedIn"): Promise<void> {
  const began = performance.now();
  const settled = (ok: boolean) =>
    run.onStarted({
      kind: event === "loggedIn" ? "login" : event,
      ok,
      durationMs: performance.now() - began,
    });
  try {
    await startSteps(run, event);
  } catch (error) {
    // a start cut short by the gateway closing is no failure of the server's
    if (run.life.state !== "closed") settled(false);
    throw error;
  }
  settled(true);
}

/** The work of one start, from the state change to `ready` (or the reason it failed). */
async function startSteps(run: UpstreamRun, event: "start" | "restart" | "loggedIn") {
  run.life.advance(event);
  try {
    if (run.login.problem !== undefined) throw new Error(run.login.problem);
    await run.login.auth?.prepare();
    await connectAndList(run);
  } catch (error) {
    if (run.life.state === "closed") throw new Error(`Server "${run.name}" is closed.`);
    const needed = run.login.auth?.loginNeeded(error);
    run.lastError = needed ?? upstreamErrorText(run.name, run.config, error, "start");
    // no restart brings back a server that needs a login: a login does (`loggedIn`)
    run.life.advance(needed === undefined ? "failed" : "needsLogin");
    throw new Error(run.lastError, { cause: error });
  }
  if (run.life.state === "closed") {
    // closed while starting: the new connection goes too
    const connection = run.connection;
    run.connection = undefined;
    if (connection) await closeConnection(connection);
    throw new Error(`Server "${run.name}" is closed.`);
  }
  run.life.advance("connected");
  run.lastError = undefined;
  run.log({ level: "info", server: run.name, message: `Connected (${run.toolCount} tools).` });
}

/** Starts the server unless it is up or a start is under way (which the caller then shares). */
export function startUpstream(run: UpstreamRun): Promise<void> {
  const { state } = run.life;
  if (state === "ready") return Promise.resolve();
  if (state === "closed") return Promise.reject(new Error(`Server "${run.name}" is closed.`));
  // in needs_login a start looks for a login again (one may be stored before the watcher sees it)
  const event = state === "down" ? "restart" : state === "needs_login" ? "loggedIn" : "start";
  run.starting ??= startOnce(run, event).finally(() => {
    run.starting = undefined;
  });
  return run.starting;
}

/** Brings the server up for a call, or says at once why it cannot. */
export async function ensureUp(run: UpstreamRun): Promise<string | undefined> {
  const { state } = run.life;
  if (state === "ready") return undefined;
  if (state === "closed") return `Server "${run.name}" is closed; restart the gateway to use it.`;
  if (state === "down" && !run.starting) {
    const refusal = run.gate.refusal(run.lastError);
    if (refusal !== undefined) return `Server "${run.name}" ${refusal}`;
    const attempt = run.gate.attempt();
    run.log({ level: "info", server: run.name, message: `Restarting (attempt ${attempt}).` });
    try {
      await startUpstream(run);
      return undefined;
    } catch (error) {
      run.gate.failed(true);
      return (error as Error).message;
    }
  }
  try {
    await startUpstream(run);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
