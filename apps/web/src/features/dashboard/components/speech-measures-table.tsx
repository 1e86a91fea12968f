import { useQuery } from "@tanstack/react-query";
import { GROUP_MEASURES, MIN_PAUSE_MS, PARTICIPANT_GROUPS, type GroupMeasure } from "@tafsiri/domain";
import type { RouterOutputs } from "@tafsiri/api";
import { useTRPC } from "#web/lib/trpc";
import { formatCount } from "#web/features/dashboard/lib/format";
import { StatsLoading, StatsProblem } from "./stats-problem";
import { ScrollRegion } from "./scroll-region";

type MeasureRow = RouterOutputs["participants"]["measures"]["rows"][number];

/** How each measure is named and shown: its row header, its unit, and its values from the server's units. */
const MEASURES: Record<GroupMeasure, { label: string; unit: string; value: (v: number) => string }> = {
  speakingMs: { label: "Speaking time", unit: "s", value: (ms) => (ms / 1000).toFixed(1) },
  speakingRatio: { label: "Speaking-time ratio", unit: "%", value: (ratio) => (ratio * 100).toFixed(1) },
  pauseCount: { label: `Pauses (${MIN_PAUSE_MS} ms and longer)`, unit: "", value: (n) => n.toFixed(1) },
  meanPauseMs: { label: "Mean pause", unit: "ms", value: (ms) => ms.toFixed(0) },
  responseLatencyMs: { label: "Response latency", unit: "ms", value: (ms) => ms.toFixed(0) },
  segmentsPerMinute: { label: "Segments per minute", unit: "", value: (n) => n.toFixed(1) },
};

/** A value with its unit ('41.2 s', '62.3 %'); '–' when not known. */
function shown(measure: GroupMeasure, value: number | null): string {
  if (value === null) return "–";
  const { unit, value: format } = MEASURES[measure];
  return unit === "" ? format(value) : `${format(value)} ${unit}`;
}

/**
 * One group's summary of one measure: 'mean ± SD', 'median [q1–q3]' and 'n = 12' on screen; the
 * same in words to a screen reader. 'No recording measured' when n is 0.
 */
function MeasureCell({ row }: { row: MeasureRow | undefined }) {
  if (!row || row.n === 0) {
    return (
      <td className="num" data-empty>
        No recording measured
      </td>
    );
  }
  const { measure } = row;
  const recordings = `${formatCount(row.n)} ${row.n === 1 ? "recording" : "recordings"}`;
  return (
    <td className="num">
      <span aria-hidden="true">
        <span className="nowrap">
          {shown(measure, row.mean)} ± {shown(measure, row.sd)}
        </span>
        <br />
        <span className="nowrap">
          {shown(measure, row.median)} [{shown(measure, row.q1)}–{shown(measure, row.q3)}]
        </span>
        <br />
        <span className="muted">n = {formatCount(row.n)}</span>
      </span>
      <span className="sr-only">
        mean {shown(measure, row.mean)}, SD {shown(measure, row.sd)}, median {shown(measure, row.median)}, interquartile
        range {shown(measure, row.q1)} to {shown(measure, row.q3)}, {recordings}
      </span>
    </td>
  );
}

/**
 * Decision 035, "Speech measures": the Admin dashboard's 'Speech measures (original audio, PAR)'
 * beside the Study balance (from `participants.measures`): a row per measure (GROUP_MEASURES), a
 * column per group, each cell mean ± SD, median [IQR] and n; the caption says how to read it and
 * that they are measured on the original audio. Scrolls inside its card on a narrow screen.
 */
export function SpeechMeasuresTable() {
  const trpc = useTRPC();
  const measures = useQuery({
    ...trpc.participants.measures.queryOptions(),
    meta: { errorMessage: "Speech measures could not be loaded" },
  });

  let content;
  if (!measures.data) {
    content = measures.isError ? (
      <StatsProblem onRetry={() => void measures.refetch()} />
    ) : (
      <StatsLoading label="Loading speech measures…" />
    );
  } else if (measures.data.rows.every((r) => r.n === 0)) {
    content = <p className="empty-state">No recording measured yet: measures follow a transcript's approval.</p>;
  } else {
    const rows = measures.data.rows;
    content = (
      <ScrollRegion label="Speech measures">
        <table className="table dash-table speech-measures-table">
          <caption className="dash-caption">
            Each cell: mean ± SD, median [interquartile range], n recordings. The participant's speech in the original
            audio of recordings with an approved transcript, never a translation or re-recording.
          </caption>
          <thead>
            <tr>
              <th scope="col">Measure</th>
              {PARTICIPANT_GROUPS.map((group) => (
                <th key={group} scope="col" className="num">
                  {group}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {GROUP_MEASURES.map((measure) => (
              <tr key={measure}>
                <th scope="row">{MEASURES[measure].label}</th>
                {PARTICIPANT_GROUPS.map((group) => (
                  <MeasureCell key={group} row={rows.find((r) => r.group === group && r.measure === measure)} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    );
  }

  return (
    <section className="card dash-panel" aria-labelledby="dash-measures-title">
      <h2 className="section-title" id="dash-measures-title">
        Speech measures (original audio, PAR)
      </h2>
      {content}
    </section>
  );
}
