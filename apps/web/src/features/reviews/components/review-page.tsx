import {
  useEffect,
  useEffectEvent,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
} from "react";
import { Link } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { TRPCClientError } from "@trpc/client";
import { COMMENT_MAX_LENGTH } from "@tafsiri/domain";
import { AudioPlayer, playerWaveform } from "@tafsiri/ui/audio-player";
import { StatusBadge } from "@tafsiri/ui/status-badge";
import type { SubmissionFilter } from "#web/lib/api-types";
import { announce } from "#web/lib/announce";
import { Field } from "#web/components/field";
import { errorMessage, isConnectionError, useTRPC, useTRPCClient } from "#web/lib/trpc";
import { paths } from "#web/config/paths";
import { TRANSCRIPT_FETCH_FAILED } from "#web/hooks/use-transcript-history";
import { useReviewQueue, type ReviewItem } from "#web/features/reviews/hooks/use-review-queue";
import "#web/styles/audio-player.css";
import "./review-page.css";
import {
  keysOf,
  REVIEW_PLAYER_SHORTCUTS,
  REVIEW_SHORTCUTS_NOTE,
  reviewCommandOf,
  type ReviewCommand,
} from "#web/features/reviews/lib/review-shortcuts";

const UNEXPECTED = "An unexpected error occurred. Please try again.";
const FILTER_LABELS: Record<SubmissionFilter, string> = {
  needsReview: "Needs review",
  approved: "Approved",
  rejected: "Rejected",
  all: "All",
};

/** A review action as ReviewActions (features/audiomanagement) runs it. */
export type ReviewRun = (
  action: "approve" | "reject" | "remove",
  expectedStatus: string,
  reason?: string,
  reassignTo?: string,
) => Promise<{ message: string }>;

/** What review mode hands to the review buttons the app composes in (ReviewActions). */
interface ReviewActionsSlotProps {
  status: string;
  subject: string;
  run: ReviewRun;
  /** The task's assignee, offered as 'Return to …' in the reject dialog (or 'Reassign to…'). */
  assignee: { id: string; username: string } | null;
  onFailure: (error: unknown) => void;
  onSettled: () => void;
}

/**
 * The pieces of other features the route composes into review mode (STYLE §12: a feature never
 * imports another): the review buttons, the transcript as reviewed (text, changes since the last
 * review, versions) and the comment list. Without `transcript`, the plain current text is shown.
 */
export interface ReviewSlots {
  reviewActions: (props: ReviewActionsSlotProps) => ReactNode;
  transcript?: (audioId: string) => ReactNode;
  comments: (audioId: string) => ReactNode;
}

/** SPEC §8: a refused review shows 'Error' with the server's message (a stale status's 409 among them). */
function showFailure(error: unknown): void {
  if (isConnectionError(error)) toast.error("Error", { description: errorMessage(error) });
  else if (error instanceof TRPCClientError && error.data) toast.error("Error", { description: error.message });
  else toast.error(UNEXPECTED);
}

/** Seconds as 'm:ss' or 'h:mm:ss'. */
function clock(seconds: number): string {
  const s = Math.round(seconds);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      <span className="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  );
}

/** The current transcript's plain text (until the route hands in the reviewed transcript). */
function PlainTranscript({ audioId }: { audioId: string }) {
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
function OriginalAudio({ audioId }: { audioId: string }) {
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
function TranslatedRecording({ audioId }: { audioId: string }) {
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

/**
 * One output's review buttons (ReviewActions, composed in by the route) with review mode's keys:
 * each button carries its aria-keyshortcuts and the keys are shown under them.
 */
function OutputActions({
  slot,
  status,
  subject,
  approveKeys,
  rejectKeys,
  run,
  assignee,
  onSettled,
  groupRef,
}: {
  slot: ReviewSlots["reviewActions"];
  status: string;
  subject: string;
  approveKeys: string;
  rejectKeys: string;
  run: ReviewRun;
  assignee: { id: string; username: string } | null;
  onSettled: () => void;
  groupRef: React.RefObject<HTMLDivElement | null>;
}) {
  const hintId = useId();
  // ReviewActions' buttons are its own: the keys are set on them once they are in the page.
  useLayoutEffect(() => {
    const group = groupRef.current;
    if (!group) return;
    for (const [selector, keys] of [
      [".btn-success", approveKeys],
      [".btn-danger-outline", rejectKeys],
    ] as const) {
      const button = group.querySelector<HTMLButtonElement>(`button${selector}`);
      if (!button) continue;
      button.setAttribute("aria-keyshortcuts", keys);
      button.setAttribute("aria-describedby", hintId);
    }
  });
  return (
    <div ref={groupRef} className="stack review-mode-actions">
      {slot({ status, subject, run, assignee, onFailure: showFailure, onSettled })}
      <p id={hintId} className="review-keys">
        <kbd>{approveKeys}</kbd> approve · <kbd>{rejectKeys}</kbd> reject
      </p>
    </div>
  );
}

/** The comment box of the item (comments.add: the assignee is notified, others see it live). */
function CommentBox({ audioId, fieldRef }: { audioId: string; fieldRef: React.RefObject<HTMLTextAreaElement | null> }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [error, setError] = useState("");
  const add = useMutation(trpc.comments.add.mutationOptions());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    if (!text.trim()) {
      setError("Please write a comment first.");
      fieldRef.current?.focus();
      return;
    }
    setError("");
    add.mutate(
      { audioId, text },
      {
        onSuccess: () => {
          setText("");
          announce("Comment added.");
          void queryClient.invalidateQueries({ queryKey: trpc.comments.list.queryKey({ audioId }) });
          fieldRef.current?.focus();
        },
        onError: (e) => {
          setError(e instanceof TRPCClientError && e.data ? e.message : UNEXPECTED);
          fieldRef.current?.focus();
        },
      },
    );
  };
  return (
    <form className="stack" onSubmit={submit}>
      <Field
        label={
          <>
            Add a comment <kbd>{keysOf("comment")}</kbd>
          </>
        }
        error={error}
      >
        {(control) => (
          <textarea
            {...control}
            ref={fieldRef}
            className="textarea"
            rows={3}
            maxLength={COMMENT_MAX_LENGTH}
            aria-keyshortcuts={keysOf("comment")}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        )}
      </Field>
      <div>
        <button type="submit" className="btn btn-primary" disabled={add.isPending}>
          {add.isPending && <span className="spinner" aria-hidden="true" />}
          Add comment
        </button>
      </div>
    </form>
  );
}

/**
 * Review mode (/submission/review, decision 025): the admin clears a Submissions filter
 * (`filter`, from ?status=) one submission at a time, oldest change first, without leaving the
 * keyboard: the heading (filename, staff, category), '3 of 41' with Previous / Next, the original
 * audio's player, the transcript, the translated recording's player, Approve / Reject for each
 * (acting on the status shown, decision 009: a stale one shows the server's 409 message), the
 * comments and a box to add one. Keys (REVIEW_KEYS): Alt+A/R transcript, Alt+O/X recording,
 * Alt+N/P next/previous, Alt+C the comment box; listed in the player's 'Shortcuts'. When another
 * admin reviews the item shown, a polite status says who did what and the queue moves on; after
 * Next or Previous focus goes to the new item's heading. Loading, empty and error states.
 */
export function ReviewPage({ filter, slots }: { filter: SubmissionFilter; slots: ReviewSlots }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const queue = useReviewQueue(filter);
  const item = queue.item;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const transcriptGroup = useRef<HTMLDivElement>(null);
  const recordingGroup = useRef<HTMLDivElement>(null);
  const shownId = item?.id;
  const focusHeading = useRef(false);
  const backLink = `${paths.submissions}${filter === "all" ? "" : `?status=${filter}`}`;

  // After a move, focus goes to the new item's heading.
  useEffect(() => {
    if (!focusHeading.current || !shownId) return;
    focusHeading.current = false;
    headingRef.current?.focus();
  }, [shownId]);

  const move = async (to: "next" | "previous") => {
    if (queue.moving) return;
    focusHeading.current = await queue.go(to);
    if (focusHeading.current) headingRef.current?.focus();
  };

  const settled = () => {
    void queue.refresh();
    for (const queryKey of [trpc.transcripts.pathKey(), trpc.recordings.pathKey(), trpc.audios.pathKey()]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  };

  const onCommand = useEffectEvent((command: ReviewCommand) => {
    if (!item) return;
    const press = (group: HTMLDivElement | null, selector: string, what: string) => {
      const button = group?.querySelector<HTMLButtonElement>(`button${selector}`);
      if (!button) return announce(`There is no ${what} to review.`);
      if (button.disabled) return announce(`The ${what} cannot be changed that way now.`);
      button.click();
    };
    switch (command) {
      case "approveTranscript":
        return press(transcriptGroup.current, ".btn-success", "transcript");
      case "rejectTranscript":
        return press(transcriptGroup.current, ".btn-danger-outline", "transcript");
      case "approveRecording":
        return press(recordingGroup.current, ".btn-success", "recording");
      case "rejectRecording":
        return press(recordingGroup.current, ".btn-danger-outline", "recording");
      case "next":
      case "previous":
        return void move(command);
      case "comment":
        return commentRef.current?.focus();
    }
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const command = reviewCommandOf(event);
      if (!command) return;
      event.preventDefault();
      onCommand(command);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  const header = (
    <p className="muted review-mode-filter">
      Review mode · {FILTER_LABELS[filter]} · oldest change first · <Link to={backLink}>Back to Submissions</Link>
    </p>
  );

  if (queue.loading) {
    return (
      <section className="page review-page">
        {header}
        <h1 className="page-title">Review</h1>
        <Loading what="the review queue" />
      </section>
    );
  }
  if (queue.error) {
    return (
      <section className="page review-page">
        {header}
        <h1 className="page-title">Review</h1>
        <div role="alert" className="stack">
          <p>The review queue could not be loaded.</p>
          <div>
            <button type="button" className="btn" onClick={queue.retry}>
              Retry
            </button>
          </div>
        </div>
      </section>
    );
  }
  if (queue.empty || !item) {
    return (
      <section className="page review-page">
        {header}
        <h1 className="page-title">Review</h1>
        <div className="card empty-state">
          <p>No submissions to review in this filter.</p>
          <Link className="btn" to={backLink}>
            Back to Submissions
          </Link>
        </div>
      </section>
    );
  }

  const runOn =
    (output: "transcripts" | "recordings", audioId: string): ReviewRun =>
    (action, expectedStatus, reason, reassignTo) =>
      action === "reject"
        ? client[output].reject.mutate({ audioId, expectedStatus: expectedStatus as never, reason, reassignTo })
        : client[output][action].mutate({ audioId, expectedStatus: expectedStatus as never });

  return (
    <section className="page review-page" aria-labelledby="review-item-heading">
      {header}
      <div className="page-header review-header">
        <div>
          <h1 id="review-item-heading" ref={headingRef} tabIndex={-1} className="page-title review-item-title">
            {item.filename}
          </h1>
          <ItemFacts item={item} />
        </div>
        <nav className="row review-nav" aria-label="Review queue">
          <button
            type="button"
            className="btn"
            aria-keyshortcuts={keysOf("previous")}
            disabled={queue.moving}
            onClick={() => void move("previous")}
          >
            Previous <kbd>{keysOf("previous")}</kbd>
          </button>
          <span className="review-position" data-testid="review-position">
            {queue.position !== null
              ? `${queue.position} of ${queue.total}`
              : `Reviewed · ${queue.total} in this filter`}
          </span>
          <button
            type="button"
            className="btn btn-primary"
            aria-keyshortcuts={keysOf("next")}
            disabled={queue.moving}
            onClick={() => void move("next")}
          >
            Next <kbd>{keysOf("next")}</kbd>
          </button>
        </nav>
      </div>
      <p className="review-notice" role="status" data-testid="review-notice">
        {queue.notice}
      </p>
      <div className="review-grid" key={item.id}>
        <div className="card stack">
          <h2 className="panel-title">Original audio</h2>
          <OriginalAudio audioId={item.audioId} />
        </div>
        <div className="card stack" role="region" aria-label="Transcript">
          <div className="row panel-header">
            <h2 className="panel-title">Transcript</h2>
            <StatusBadge status={item.transcriptStatus} />
          </div>
          {slots.transcript ? slots.transcript(item.audioId) : <PlainTranscript audioId={item.audioId} />}
          {item.hasTranscript ? (
            <OutputActions
              slot={slots.reviewActions}
              status={item.transcriptStatus}
              subject="transcript"
              approveKeys={keysOf("approveTranscript")}
              rejectKeys={keysOf("rejectTranscript")}
              run={runOn("transcripts", item.audioId)}
              assignee={item.staff}
              onSettled={settled}
              groupRef={transcriptGroup}
            />
          ) : null}
        </div>
        <div className="card stack" role="region" aria-label="Translated recording">
          <div className="row panel-header">
            <h2 className="panel-title">Translated recording</h2>
            <StatusBadge status={item.recordingStatus} />
          </div>
          <TranslatedRecording audioId={item.audioId} />
          {item.hasRecording ? (
            <OutputActions
              slot={slots.reviewActions}
              status={item.recordingStatus}
              subject="translated audio"
              approveKeys={keysOf("approveRecording")}
              rejectKeys={keysOf("rejectRecording")}
              run={runOn("recordings", item.audioId)}
              assignee={item.staff}
              onSettled={settled}
              groupRef={recordingGroup}
            />
          ) : null}
        </div>
        <div className="card stack" role="region" aria-label="Comments">
          <h2 className="panel-title">Comments</h2>
          {slots.comments(item.audioId)}
          <CommentBox audioId={item.audioId} fieldRef={commentRef} />
        </div>
      </div>
    </section>
  );
}

/** 'Staff: amina · Category: Dementia · 3:05' under the heading. */
function ItemFacts({ item }: { item: ReviewItem }) {
  return (
    <p className="muted review-item-facts">
      Staff: {item.staff?.username ?? "Unknown User"} · Category: {item.category}
      {item.durationSeconds !== null ? ` · ${clock(item.durationSeconds)}` : ""}
    </p>
  );
}
