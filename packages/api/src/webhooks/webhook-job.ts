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
 * retries that fell due) and one `wakeDelayMs` (200 ms) after `wake()` is called (after a commit in
 * this process), so that the commits of that moment share a round: one read and one log for all
 * their deliveries rather than for each. A wake during a round runs another round after it. Failed
 * rounds are logged and retried at the next.
 */
export function startWebhookJob(
  deps: Pick<AppDeps, "db" | "events"> & {
    locks: JobLocks;
    log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  },
  opts: WebhookDeliveryOptions & { pollMs?: number; wakeDelayMs?: number },
): WebhookJob {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let woken: NodeJS.Timeout | null = null;
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
        if (again) wake();
      });
  };
  const wake = () => {
    if (stopped || woken) return;
    woken = setTimeout(() => {
      woken = null;
      tick();
    }, opts.wakeDelayMs ?? 200);
  };
  const timer = setInterval(tick, opts.pollMs ?? 1000);
  timer.unref();
  tick();
  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (woken) clearTimeout(woken);
      await running;
    },
  };
}
