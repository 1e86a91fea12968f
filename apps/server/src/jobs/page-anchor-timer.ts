import { rebuildChangedPageAnchors, timeJob, type JobLocks } from "@tafsiri/api";
import type { Database } from "@tafsiri/db";
import { runHourly, type JobLog } from "./hourly-job";

/** How often the page anchors of lists that changed are rebuilt (decision 030), in ms. */
const PAGE_ANCHORS_EVERY_MS = 60_000;

/**
 * Decision 030: rebuilds the page anchors of every list that changed since the last round, at start
 * and then every PAGE_ANCHORS_EVERY_MS, in the one process holding the `page-anchors` job lock.
 * A round that rebuilt something logs one info line ("page anchors: rebuilt tasks (2 written) …");
 * a quiet round logs nothing; a failure is logged as an error and retried at the next round. Each
 * round that ran here counts as one `anchors` job run in the metrics (decision 028). Returns the
 * function that stops it (awaiting a round in progress).
 */
export function rebuildPageAnchorsEveryMinute(
  deps: { db: Database; locks: JobLocks },
  log: JobLog,
  everyMs = PAGE_ANCHORS_EVERY_MS,
): () => Promise<void> {
  return runHourly({
    label: "page anchors",
    log,
    everyMs,
    round: async () => {
      const round = await deps.locks.runRound("page-anchors", () =>
        timeJob("anchors", () => rebuildChangedPageAnchors(deps.db)),
      );
      if (!round.ran || round.value.length === 0) return;
      const lists = round.value.map((r) => `${r.list} (${r.written} written, ${r.kept} kept)`).join(", ");
      log.info({ rebuilt: round.value }, `page anchors: rebuilt ${lists}`);
    },
  });
}
