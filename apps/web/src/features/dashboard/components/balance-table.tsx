import { useQuery } from "@tanstack/react-query";
import { AGE_BANDS, PARTICIPANT_GROUPS, SEXES, type ParticipantGroup, type Sex } from "@tafsiri/domain";
import type { RouterOutputs } from "@tafsiri/api";
import { useTRPC } from "#web/lib/trpc";
import { formatCount } from "#web/features/dashboard/lib/format";
import { StatsLoading, StatsProblem } from "./stats-problem";
import { ScrollRegion } from "./scroll-region";

type BalanceRow = RouterOutputs["participants"]["balance"]["rows"][number];
interface Counts {
  participants: number;
  approvedRecordings: number;
}

const SEX_WORDS: Record<Sex, string> = { female: "female", male: "male" };

/** One line of the table: a group and a sex (null: not recorded), with its counts per age band and in all. */
interface BalanceLine {
  group: ParticipantGroup;
  sex: Sex | null;
  bands: Map<string, Counts>;
  total: Counts;
}

/**
 * The lines of the table: each group × sex (female, male; 'sex not recorded' only where someone
 * has no sex recorded), with the counts of every age band (0 where the server gave no row).
 */
function balanceLines(rows: readonly BalanceRow[]): BalanceLine[] {
  const lines: BalanceLine[] = [];
  for (const group of PARTICIPANT_GROUPS) {
    for (const sex of [...SEXES, null]) {
      const mine = rows.filter((r) => r.group === group && r.sex === sex);
      if (sex === null && mine.every((r) => r.participants === 0 && r.approvedRecordings === 0)) continue;
      const bands = new Map<string, Counts>();
      const total: Counts = { participants: 0, approvedRecordings: 0 };
      for (const row of mine) {
        const cell = bands.get(row.ageBand) ?? { participants: 0, approvedRecordings: 0 };
        cell.participants += row.participants;
        cell.approvedRecordings += row.approvedRecordings;
        bands.set(row.ageBand, cell);
        total.participants += row.participants;
        total.approvedRecordings += row.approvedRecordings;
      }
      lines.push({ group, sex, bands, total });
    }
  }
  return lines;
}

/** '12 / 30' on screen; '12 participants, 30 approved recordings' to a screen reader. */
function CountsCell({ counts }: { counts: Counts | undefined }) {
  const { participants, approvedRecordings } = counts ?? { participants: 0, approvedRecordings: 0 };
  return (
    <td className="num nowrap" data-empty={participants === 0 && approvedRecordings === 0 ? true : undefined}>
      <span aria-hidden="true">
        {formatCount(participants)} / {formatCount(approvedRecordings)}
      </span>
      <span className="sr-only">
        {formatCount(participants)} {participants === 1 ? "participant" : "participants"},{" "}
        {formatCount(approvedRecordings)} approved {approvedRecordings === 1 ? "recording" : "recordings"}
      </span>
    </td>
  );
}

/**
 * Decision 024, the Admin dashboard's 'Study balance' (from `participants.balance`): a table with a
 * row per group × sex and a column per age band (AGE_BANDS) and in all, each cell 'participants /
 * approved recordings'; the caption says how to read it. Scrolls inside its card on a narrow screen.
 */
export function BalanceTable() {
  const trpc = useTRPC();
  const balance = useQuery({
    ...trpc.participants.balance.queryOptions(),
    meta: { errorMessage: "Study balance could not be loaded" },
  });
  const columns = [...AGE_BANDS, "All ages"];

  let content;
  if (!balance.data) {
    content = balance.isError ? (
      <StatsProblem onRetry={() => void balance.refetch()} />
    ) : (
      <StatsLoading label="Loading study balance…" />
    );
  } else if (balance.data.rows.every((r) => r.participants === 0)) {
    content = <p className="empty-state">No participants yet.</p>;
  } else {
    content = (
      <ScrollRegion label="Study balance">
        <table className="table dash-table balance-table">
          <caption className="dash-caption">
            Each cell: participants / approved recordings. Participants are counted by their age today, recordings by
            the participant's age at the session.
          </caption>
          <thead>
            <tr>
              <th scope="col">Group and sex</th>
              {columns.map((band) => (
                <th key={band} scope="col" className="num nowrap">
                  {band}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {balanceLines(balance.data.rows).map((line) => (
              <tr key={`${line.group}-${line.sex ?? "unknown"}`}>
                <th scope="row" className="nowrap">
                  {line.group}, {line.sex ? SEX_WORDS[line.sex] : "sex not recorded"}
                </th>
                {AGE_BANDS.map((band) => (
                  <CountsCell key={band} counts={line.bands.get(band)} />
                ))}
                <CountsCell counts={line.total} />
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    );
  }

  return (
    <section className="card dash-panel" aria-labelledby="dash-balance-title">
      <h2 className="section-title" id="dash-balance-title">
        Study balance
      </h2>
      {content}
    </section>
  );
}
