/** Where the shutdown writes what it does (Fastify's logger fits). */
interface ShutdownLog {
  info(msg: string): void;
  warn(msg: string): void;
  error(obj: { err: unknown }, msg: string): void;
}

/** What a stopping instance does, in order, and how long it may take. */
export interface ShutdownOptions {
  /**
   * Stops taking connections and waits for the requests in flight (`app.close()`: new requests on
   * kept-alive connections, /healthz included, are answered 503; live sockets are closed with 1012).
   */
  drain: () => Promise<void>;
  /**
   * On SIGTERM only, before the drain: makes /healthz answer 503 while requests are still served
   * (announceStopping), for `noticeMs`, so a proxy stops sending new requests before the listener
   * closes. SIGINT (Ctrl+C at a terminal, no proxy) skips it.
   */
  announce: () => void;
  /** How long the notice lasts (ms): SHUTDOWN_NOTICE_SECONDS × 1000; 0 skips it. */
  noticeMs: number;
  /** Drops every connection still open (`server.closeAllConnections()`), once the grace period is over. */
  dropConnections: () => void;
  /** Then, one after the other (jobs, locks, event bus, storage, pools); a failing step is logged and the rest still run. */
  steps: Array<{ name: string; run: () => Promise<unknown> }>;
  /** How long the requests in flight may take (ms): SHUTDOWN_GRACE_SECONDS × 1000. */
  graceMs: number;
  /** How long the steps may take after the drain before the process exits with 1 anyway (ms, default 10 s). */
  stepsMs?: number;
  log: ShutdownLog;
  /** process.exit, or a stand-in. */
  exit: (code: number) => void;
}

/**
 * Decision 029 (upgrades without downtime): answers the handler for SIGTERM and SIGINT. The first
 * SIGTERM gives notice first (`announce`, then `noticeMs` of serving as usual); then the first
 * signal drains (`drain`): requests and upload chunks in flight finish, for at most `graceMs`, after
 * which the connections still open are dropped (`dropConnections`); then the `steps` run in order
 * and the process exits 0 (1 when a step failed, or when the steps take longer than `stepsMs`). A
 * second signal while stopping starts nothing: it is logged and ignored. Raises nothing (failures
 * are logged).
 */
export function gracefulShutdown(opts: ShutdownOptions): (signal: NodeJS.Signals) => Promise<void> {
  let stopping = false;
  return async (signal) => {
    if (stopping) {
      opts.log.warn(`${signal} received while already stopping; the shutdown under way goes on`);
      return;
    }
    stopping = true;
    const graceSeconds = Math.round(opts.graceMs / 100) / 10;
    if (signal === "SIGTERM" && opts.noticeMs > 0) {
      opts.announce();
      opts.log.info(
        `${signal} received: /healthz answers 503; serving ${opts.noticeMs / 1000} s more so the proxy turns away, then stopping`,
      );
      await new Promise((resolve) => setTimeout(resolve, opts.noticeMs));
    }
    opts.log.info(`${signal} received: stopping (finishing requests in flight for at most ${graceSeconds} s)`);
    const grace = setTimeout(() => {
      opts.log.warn(`requests still in flight after ${graceSeconds} s: dropping their connections`);
      opts.dropConnections();
    }, opts.graceMs);
    try {
      await opts.drain();
    } catch (err) {
      opts.log.error({ err }, "closing the server failed; stopping anyway");
    }
    clearTimeout(grace);
    const stepsMs = opts.stepsMs ?? 10_000;
    const hard = setTimeout(() => {
      opts.log.warn(`shutdown steps still running after ${stepsMs / 1000} s: exiting anyway`);
      opts.exit(1);
    }, stepsMs);
    hard.unref();
    let failed = false;
    for (const step of opts.steps) {
      try {
        await step.run();
      } catch (err) {
        failed = true;
        opts.log.error({ err }, `shutdown step "${step.name}" failed`);
      }
    }
    clearTimeout(hard);
    opts.log.info("stopped");
    opts.exit(failed ? 1 : 0);
  };
}
