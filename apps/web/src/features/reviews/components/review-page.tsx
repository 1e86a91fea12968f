import { useEffect, useRef, type ReactNode } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { StatusBadge } from "@tafsiri/ui/status-badge";
import type { SubmissionFilter } from "#web/lib/api-types";
import { announce } from "#web/lib/announce";
import { useTRPC, useTRPCClient } from "#web/lib/trpc";
import { paths } from "#web/config/paths";
import { useReviewQueue } from "#web/features/reviews/hooks/use-review-queue";
import { useReviewKeys } from "#web/features/reviews/hooks/use-review-keys";
import { keysOf } from "#web/features/reviews/lib/review-shortcuts";
import { Loading, OriginalAudio, PlainTranscript, TranslatedRecording } from "./review-media";
import { reviewRunOf } from "#web/components/review-actions";
import { OutputActions } from "./output-actions";
import { ReviewCommentBox } from "./review-comment-box";
import { ReviewItemHeader } from "./review-item-header";
import "./review-page.css";

const FILTER_LABELS: Record<SubmissionFilter, string> = {
  needsReview: "Needs review",
  approved: "Approved",
  rejected: "Rejected",
  all: "All",
};

/**
 * The pieces of other features the route composes into review mode (STYLE §12: a feature never
 * imports another): the transcript as reviewed (text, changes since the last review, versions) and
 * the comment list. Without `transcript`, the plain current text is shown. The review buttons
 * (src/components/review-actions.tsx) and the comment box (src/components/comment-form.tsx) are
 * shared components, the same the audio pages show.
 */
export interface ReviewSlots {
  transcript?: (audioId: string) => ReactNode;
  /**
   * Decision 035, review by segment: the translated recording's takes by segment, with a button of
   * class `play-chosen-segment` that review mode's Alt+L presses.
   */
  recording?: (audioId: string) => ReactNode;
  comments: (audioId: string) => ReactNode;
}

/**
 * Review mode (/submission/review, decision 025): the admin clears a Submissions filter
 * (`filter`, from ?status=) one submission at a time, oldest change first, without leaving the
 * keyboard: the heading (filename, staff, category), '3 of 41' with Previous / Next, the original
 * audio's player, the transcript, the translated recording's player, Approve / Reject for each
 * (acting on the status shown, decision 009: a stale one shows the server's 409 message), the
 * comments and a box to add one. Keys (REVIEW_KEYS): Alt+A/R transcript, Alt+O/X recording,
 * Alt+N/P next/previous, Alt+C the comment box, Alt+L the chosen segment's source then take
 * (decision 035, when the route gives `slots.recording`); listed in the player's 'Shortcuts'. When another
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
  const recordingCard = useRef<HTMLDivElement>(null);
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

  useReviewKeys((command) => {
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
      case "playSegment":
        return press(recordingCard.current, ".play-chosen-segment", "segment");
    }
  });

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

  return (
    <section className="page review-page" aria-labelledby="review-item-heading">
      {header}
      <ReviewItemHeader
        item={item}
        headingRef={headingRef}
        position={queue.position}
        total={queue.total}
        moving={queue.moving}
        onMove={(to) => void move(to)}
      />
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
              status={item.transcriptStatus}
              subject="transcript"
              approveKeys={keysOf("approveTranscript")}
              rejectKeys={keysOf("rejectTranscript")}
              run={reviewRunOf(client, "transcripts", item.audioId)}
              assignee={item.staff}
              onSettled={settled}
              groupRef={transcriptGroup}
            />
          ) : null}
        </div>
        <div className="card stack" role="region" aria-label="Translated recording" ref={recordingCard}>
          <div className="row panel-header">
            <h2 className="panel-title">Translated recording</h2>
            <StatusBadge status={item.recordingStatus} />
          </div>
          <TranslatedRecording audioId={item.audioId} />
          {slots.recording?.(item.audioId)}
          {item.hasRecording ? (
            <OutputActions
              status={item.recordingStatus}
              subject="translated audio"
              approveKeys={keysOf("approveRecording")}
              rejectKeys={keysOf("rejectRecording")}
              run={reviewRunOf(client, "recordings", item.audioId)}
              assignee={item.staff}
              onSettled={settled}
              groupRef={recordingGroup}
            />
          ) : null}
        </div>
        <div className="card stack" role="region" aria-label="Comments">
          <h2 className="panel-title">Comments</h2>
          {slots.comments(item.audioId)}
          <ReviewCommentBox audioId={item.audioId} fieldRef={commentRef} />
        </div>
      </div>
    </section>
  );
}
