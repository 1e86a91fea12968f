import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";
import { htmlLang } from "#web/features/translation/lib/segment-labels";
import { SegmentTimeSpeaker } from "#web/features/translation/components/segment-time-speaker";
import "#web/features/translation/translation.css";

/**
 * Decision 035, review side by side: an audio's source and translation per segment, read only, each
 * row marked when its translation changed since the last review or a rejection asked to fix it.
 * Shows nothing for an audio whose translation has no source segments (its text says it all).
 */
export function SegmentPairs({ audioId }: { audioId: string }) {
  const trpc = useTRPC();
  const grid = useQuery(trpc.translation.segments.queryOptions({ audioId }, { refetchOnWindowFocus: false }));
  const data = grid.data;
  if (!data || !data.segments.some((s) => s.source.trim() !== "")) return null;
  const reviewedAny = Object.keys(data.reviewedTargets).length > 0;
  return (
    // Focusable, so its rows can be scrolled from the keyboard.
    <div className="segment-pairs" role="region" aria-label="Segments" tabIndex={0}>
      <table>
        <caption>
          Source ({data.pair.source}) and translation ({data.pair.target}), segment by segment
        </caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Time, speaker</th>
            <th scope="col">Source</th>
            <th scope="col">Translation</th>
            <th scope="col">Review</th>
          </tr>
        </thead>
        <tbody>
          {data.segments.map((s, i) => {
            const reviewed = data.reviewedTargets[s.id];
            const changed = reviewedAny && reviewed !== s.target;
            const toFix = data.toFix[s.id];
            return (
              <tr key={s.id} data-changed={changed || undefined}>
                <td>{i + 1}</td>
                <td>
                  <SegmentTimeSpeaker startMs={s.startMs} endMs={s.endMs} speaker={s.speaker} />
                </td>
                <td lang={htmlLang(data.pair.source)}>{s.source}</td>
                <td lang={htmlLang(data.pair.target)}>{s.target || <span className="muted">(not translated)</span>}</td>
                <td>
                  {changed && <span className="segment-changed">Changed since the last review</span>}
                  {toFix !== undefined && (
                    <span className="segment-to-fix">
                      <span aria-hidden="true">⚑</span> To fix{toFix ? `: ${toFix}` : ""}
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
