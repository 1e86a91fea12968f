import type { AppDeps } from "../context";
import type { JobLocks } from "@tafsiri/db/repositories/job-locks";
import { deliverDueWebhooks, type WebhookDeliveryOptions } from "./deliver";

/** The running delivery job: wake it after a commit that wrote webhook events; stop it at shutdown. */
export interface WebhookJob {
  wake(): void;
  /** Stops polling and awaits the round in progress (it reads nothing more; what is in flight answers). */
  stop(): Promise<void>;
}

/**
 * Decision 037: delivers webhooks in the one process holding the `webhooks` job lock: a round at
 * start, one every `pollMs` (1 s, the fallback that also sends what other processes wrote and the
 * retries that fell due) and one as soon as `wake()` is called (after a commit in this process). A
 * wake during a round runs another round after it. Failed rounds are logged and retried at the next.
 */
export function startWebhookJob(
  deps: Pick<AppDeps, "db" | "events"> & {
    locks: JobLocks;
    log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  },
  opts: WebhookDeliveryOptions & { pollMs?: number },
): WebhookJob {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = deps.locks
      .runRound("webhooks", () => deliverDueWebhooks(deps, opts, () => stopped))
      .then((round) => {
        if (round.ran && round.value.delivered + round.value.retrying + round.value.failed > 0) {
          deps.log.info(round.value, "webhooks: round done");
        }
      })
      .catch((error: unknown) => deps.log.error({ err: error }, "webhooks: round failed"))
      .finally(() => {
        running = null;
        if (again) tick();
      });
  };
  const timer = setInterval(tick, opts.pollMs ?? 1000);
  timer.unref();
  tick();
  return {
    wake: tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
