import { useCallback, useMemo, useRef, useState } from "react";
import type { AudioPlayerHandle } from "@tafsiri/ui/audio-player";
import { blockingFindings } from "@tafsiri/domain";
import type { AudioDetail } from "#web/lib/api-types";
import { OriginalAudioToggle } from "#web/components/original-audio-toggle";
import { GRID_SHORTCUTS } from "#web/lib/key-registry";
import { useSegmentGrid } from "#web/features/translation/hooks/use-segment-grid";
import { SegmentGrid, type SpanPlayer } from "./segment-grid";
import { ChecksList } from "./checks-list";
import "#web/features/translation/translation.css";

/**
 * Decision 035: the Translated Transcript screen's segment grid: the original audio's player
 * above it (its 'Shortcuts' list the grid's keys), the language pair, 'N of M translated', the
 * checks with a link to each segment, the grid, and Submit, which saves the SPEC's transcript
 * file once no error is left (drafts are kept on the server as one types).
 */
export function TranslationWorkspace({ audio }: { audio: AudioDetail }) {
  const { grid, rows, setRows, findings, progress, savedAt, saving, submitting, saveNow, submit } = useSegmentGrid(
    audio.id,
  );
  const [audioShown, setAudioShown] = useState(false);
  const [showAllChecks, setShowAllChecks] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ id: string } | null>(null);
  const handle = useRef<AudioPlayerHandle | null>(null);
  const pending = useRef<{ start: number; end?: number } | null>(null);
  const attachPlayer = useCallback((player: AudioPlayerHandle | null) => {
    handle.current = player;
    const wanted = pending.current;
    pending.current = null;
    if (player && wanted) player.playFrom(wanted.start, wanted.end);
  }, []);
  const player = useMemo<SpanPlayer>(
    () => ({
      playSpan: (startMs, endMs) => {
        const span = { start: startMs / 1000, end: endMs === null ? undefined : endMs / 1000 };
        if (handle.current) handle.current.playFrom(span.start, span.end);
        else {
          pending.current = span;
          setAudioShown(true);
        }
      },
    }),
    [],
  );

  if (grid.isPending) {
    return (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading segments…
      </p>
    );
  }
  if (!grid.data || !rows) {
    return (
      <div className="stack" role="alert">
        <p className="field-error">Failed to load the segments.</p>
        <div>
          <button type="button" className="btn btn-sm" onClick={() => void grid.refetch()}>
            Retry
          </button>
        </div>
      </div>
    );
  }
  const data = grid.data;
  const errors = blockingFindings(findings).length;
  return (
    <div className="stack translation-workspace">
      <OriginalAudioToggle
        audioUrl={audio.audioUrl}
        waveform={audio.waveform}
        shown={audioShown}
        onShownChange={setAudioShown}
        playerRef={attachPlayer}
        moreShortcuts={GRID_SHORTCUTS}
      />
      <div className="row translation-status">
        <span className="language-pair">
          <abbr title="Source language (ISO 639-3)">{data.pair.source}</abbr> →{" "}
          <abbr title="Target language (ISO 639-3)">{data.pair.target}</abbr>
        </span>
        <strong className="translated-count" role="status">
          {progress.translated} of {progress.total} translated
        </strong>
        <span className="muted draft-state" aria-live="polite">
          {saving ? "Saving draft…" : savedAt ? `Draft saved ${savedAt.toLocaleTimeString()}` : ""}
        </span>
      </div>
      <ChecksList
        findings={findings}
        rows={rows}
        onGoTo={(id) => setFocusRequest({ id })}
        showAll={showAllChecks}
        onShowAll={() => setShowAllChecks(true)}
      />
      <SegmentGrid
        audioId={audio.id}
        data={data}
        rows={rows}
        onRowsChange={setRows}
        findings={findings}
        player={player}
        focusRequest={focusRequest}
      />
      {data.editable && (
        <div className="row transcript-footer">
          <button type="button" className="btn" onClick={() => void saveNow()} disabled={saving || submitting}>
            Save draft
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void submit()}
            disabled={submitting || errors > 0}
            aria-describedby={errors > 0 ? "submit-blocked" : undefined}
          >
            {submitting && <span className="spinner" aria-hidden="true" />}
            Submit translation
          </button>
          {errors > 0 && (
            <span id="submit-blocked" className="muted">
              Fix the errors above to submit.
            </span>
          )}
        </div>
      )}
    </div>
  );
}
