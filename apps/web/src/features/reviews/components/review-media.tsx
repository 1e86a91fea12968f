import { useQuery } from "@tanstack/react-query";
import { AudioPlayer, playerWaveform } from "@tafsiri/ui/audio-player";
import { useTRPC } from "#web/lib/trpc";
import { TRANSCRIPT_FETCH_FAILED } from "#web/hooks/use-transcript-history";
import { REVIEW_PLAYER_SHORTCUTS, REVIEW_SHORTCUTS_NOTE } from "#web/features/reviews/lib/review-shortcuts";
import "#web/styles/audio-player.css";

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      <span className="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  );
}

/** The current transcript's plain text (until the route hands in the reviewed transcript). */
export function PlainTranscript({ audioId }: { audioId: string }) {
  const trpc = useTRPC();
  const transcript = useQuery({
    ...trpc.transcripts.get.queryOptions({ audioId }),
    meta: { errorMessage: TRANSCRIPT_FETCH_FAILED },
  });
  if (transcript.isPending) return <Loading what="transcript" />;
  if (transcript.isError) return <p role="alert">The transcript could not be loaded.</p>;
  if (!transcript.data.text) return <p className="muted">No transcript yet</p>;
  return (
    <div className="transcript-view" data-testid="review-transcript-text">
      {transcript.data.text}
    </div>
  );
}

/** The original audio's streaming player with review mode's keys in its 'Shortcuts' popover. */
export function OriginalAudio({ audioId }: { audioId: string }) {
  const trpc = useTRPC();
  const audio = useQuery(trpc.audios.get.queryOptions({ audioId }));
  if (audio.isPending) return <Loading what="audio" />;
  if (audio.isError) return <p role="alert">The audio could not be loaded.</p>;
  const url = audio.data.audioUrl;
  return (
    <AudioPlayer
      url={url}
      sourceKey={url.split("?")[0]}
      label="Original audio"
      shortcuts
      moreShortcuts={REVIEW_PLAYER_SHORTCUTS}
      shortcutsNote={REVIEW_SHORTCUTS_NOTE}
      waveform={playerWaveform(audio.data.waveform)}
    />
  );
}

/** The translated recording's player, or 'No recording yet'. */
export function TranslatedRecording({ audioId }: { audioId: string }) {
  const trpc = useTRPC();
  const recording = useQuery(trpc.recordings.get.queryOptions({ audioId }));
  if (recording.isPending) return <Loading what="recording" />;
  if (recording.isError) return <p role="alert">The recording could not be loaded.</p>;
  const url = recording.data.url;
  if (!url) return <p className="muted">No recording yet</p>;
  return (
    <div className="stack">
      {recording.data.recordedBy && <p className="muted">Recorded by {recording.data.recordedBy.username}</p>}
      <AudioPlayer
        url={url}
        sourceKey={url.split("?")[0]}
        label="Translated recording"
        waveform={playerWaveform(recording.data.waveform)}
      />
    </div>
  );
}
