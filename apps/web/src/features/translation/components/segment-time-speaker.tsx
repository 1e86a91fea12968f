import type { Speaker } from "@tafsiri/domain";
import { SPEAKER_WORDS, spanText } from "#web/features/translation/lib/segment-labels";

/** A segment's time in the original audio ('—' when it has none) and its speaker's tier code, spelt out on hover (decision 035). */
export function SegmentTimeSpeaker({
  startMs,
  endMs,
  speaker,
}: {
  startMs: number | null;
  endMs: number | null;
  speaker: Speaker;
}) {
  return (
    <>
      {spanText(startMs, endMs) ?? "—"}{" "}
      <abbr title={SPEAKER_WORDS[speaker]} className="speaker-label" data-speaker={speaker}>
        {speaker}
      </abbr>
    </>
  );
}
