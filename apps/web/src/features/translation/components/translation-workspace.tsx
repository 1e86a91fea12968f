import { useMemo, useRef, useState } from "react";
import { blockingFindings } from "@tafsiri/domain";
import type { AudioDetail } from "#web/lib/api-types";
import { OriginalAudioToggle } from "#web/components/original-audio-toggle";
import { ReviewActions, type ReviewAction } from "#web/components/review-actions";
import { useSession } from "#web/hooks/use-session";
import { useRefreshAudioWork } from "#web/hooks/use-refresh-audio-work";
import { useSpanPlayer } from "#web/hooks/use-span-player";
import { errorMessage, useTRPC, useTRPCClient } from "#web/lib/trpc";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { GRID_SHORTCUTS } from "#web/lib/key-registry";
import { useSegmentGrid } from "#web/features/translation/hooks/use-segment-grid";
import { SegmentGrid, type SpanPlayer } from "./segment-grid";
import { ChecksList } from "./checks-list";
import { TakesPanel, type TakeRecorder } from "./takes-panel";
import "#web/features/translation/translation.css";

/**
 * Decision 035: the Translated Transcript screen's segment grid: the original audio's player
 * above it (its 'Shortcuts' list the grid's keys), the language pair, 'N of M translated', the
 * checks with a link to each segment, the grid, and Submit, which saves the SPEC's transcript
 * file once no error is left (drafts are kept on the server as one types).
 */
export function TranslationWorkspace({
  audio,
  useRecorder,
}: {
  audio: AudioDetail;
  /** The browser recorder for the takes (decision 035, oral translation); the route passes it in. */
  useRecorder(fileName: string): TakeRecorder;
}) {
  const { grid, rows, setRows, findings, progress, savedAt, saving, submitting, saveNow, submit } = useSegmentGrid(
    audio.id,
  );
  const [showAllChecks, setShowAllChecks] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ id: string } | null>(null);
  const isReviewer = useSession()?.role === "Admin";
  const [flags, setFlags] = useState<Map<string, string>>(() => new Map());
  const client = useTRPCClient();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = useRefreshAudioWork();
  /** Decision 035: a rejection names the segments marked to fix, with their notes. */
  const run = (action: ReviewAction, expectedStatus: string, reason?: string, reassignTo?: string) => {
    const expected = expectedStatus as never;
    if (action !== "reject") return client.transcripts[action].mutate({ audioId: audio.id, expectedStatus: expected });
    const segments = [...flags].map(([id, note]) => ({ id, note: note.trim() }));
    return client.transcripts.reject.mutate({
      audioId: audio.id,
      expectedStatus: expected,
      reason,
      reassignTo,
      segments,
    });
  };
  const afterReview = () => {
    setFlags(new Map());
    refresh();
    void queryClient.invalidateQueries({ queryKey: trpc.translation.segments.queryKey({ audioId: audio.id }) });
  };
  const recorder = useRecorder("take.wav");
  const [activeRowId, setActiveRowId] = useState<string | null>(null);
  const takeToggle = useRef<((rowId: string) => void) | null>(null);
  const spanPlayer = useSpanPlayer();
  const { playSpan } = spanPlayer;
  const player = useMemo<SpanPlayer>(() => ({ playSpan }), [playSpan]);

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
        shown={spanPlayer.shown}
        onShownChange={spanPlayer.setShown}
        playerRef={spanPlayer.attachPlayer}
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
      <ToFixList toFix={data.toFix} rows={rows} onGoTo={(id) => setFocusRequest({ id })} />
      <SegmentGrid
        audioId={audio.id}
        data={data}
        rows={rows}
        onRowsChange={setRows}
        findings={findings}
        player={player}
        focusRequest={focusRequest}
        flags={isReviewer ? flags : null}
        onFlagsChange={setFlags}
        onTakeKey={isReviewer ? undefined : (id) => takeToggle.current?.(id)}
        onActiveChange={setActiveRowId}
      />
      <TakesPanel
        audioId={audio.id}
        rows={rows}
        activeRowId={activeRowId}
        recorder={recorder}
        canRecord={!isReviewer && audio.task !== null}
        beforeUpload={saveNow}
        onGoTo={(id) => setFocusRequest({ id })}
        toggleRef={takeToggle}
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
      {isReviewer && data.status !== "No transcript" && (
        <div className="review stack">
          {flags.size > 0 && (
            <p className="muted">
              {flags.size} segment{flags.size === 1 ? "" : "s"} marked to fix (Alt+F): a rejection names{" "}
              {flags.size === 1 ? "it" : "them"} to the staff member.
            </p>
          )}
          <ReviewActions
            status={data.status}
            subject="transcript"
            run={run}
            assignee={audio.task?.assignedTo}
            onFailure={(error) => toast.error(errorMessage(error))}
            onSettled={afterReview}
            confirmApproval={
              errors > 0
                ? `The checks still find ${errors} error${errors === 1 ? "" : "s"} in this translation. Approve it anyway?`
                : null
            }
          />
        </div>
      )}
    </div>
  );
}

/** Decision 035: the segments the last rejection asked to fix, each a link to its row. */
function ToFixList({
  toFix,
  rows,
  onGoTo,
}: {
  toFix: Record<string, string>;
  rows: readonly { id: string }[];
  onGoTo(id: string): void;
}) {
  const marked = rows.map((r, i) => ({ id: r.id, number: i + 1 })).filter((r) => r.id in toFix);
  if (marked.length === 0) return null;
  return (
    <section className="to-fix-list" aria-label="Segments to fix">
      <p>
        <strong>
          <span aria-hidden="true">⚑</span> The reviewer asked to fix {marked.length} segment
          {marked.length === 1 ? "" : "s"}:
        </strong>
      </p>
      <ul>
        {marked.map((r) => (
          <li key={r.id}>
            <button type="button" className="btn-link" onClick={() => onGoTo(r.id)}>
              Segment {r.number}
            </button>
            {toFix[r.id] ? `: ${toFix[r.id]}` : ""}
          </li>
        ))}
      </ul>
    </section>
  );
}
