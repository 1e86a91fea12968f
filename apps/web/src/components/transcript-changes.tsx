import { useId, useMemo, useState } from "react";
import dayjs from "dayjs";
import {
  useTranscriptHistory,
  type TranscriptHistory,
  type TranscriptVersionEntry,
  type TranscriptVersionReview,
} from "#web/hooks/use-transcript-history";
import { changeCountLabel, transcriptDiff, type DiffPart } from "#web/lib/transcript-diff";
import "./transcript-changes.css";

/** The versions the server lists at most (the newest ones), as transcripts.history caps them. */
const HISTORY_CAP = 200;

/** A review or save time as the history shows it, e.g. '26 Nov 2026, 14:03' (the viewer's local time). */
function reviewTime(at: string): string {
  return dayjs(at).format("D MMM YYYY, HH:mm");
}

/** Who did it: the username, or 'a removed account' when the account is gone. */
function who(user: { username: string } | null): string {
  return user?.username ?? "a removed account";
}

/** 'Rejected by admin1 on 26 Nov 2026, 14:03: Check the names.' / 'Approved by admin1 on …'. */
function reviewSentence(review: TranscriptVersionReview): string {
  const verb = review.action === "reject" ? "Rejected" : "Approved";
  const reason = review.reason ? `: ${review.reason}` : "";
  return `${verb} by ${who(review.reviewer)} on ${reviewTime(review.reviewedAt)}${reason}`;
}

/** One run of the diff: removed words struck through, added ones underlined, each also said in words. */
function DiffRun({ part }: { part: DiffPart }) {
  if (part.kind === "same") return <>{part.text}</>;
  const removed = part.kind === "removed";
  // A run of several words says where it ends, so a screen reader does not run on into unchanged words.
  const long = /\S\s+\S/.test(part.text);
  const Tag = removed ? "del" : "ins";
  return (
    <>
      <span className="sr-only">{removed ? "removed: " : "added: "}</span>
      <Tag className={removed ? "diff-removed" : "diff-added"}>{part.text}</Tag>
      {long && <span className="sr-only">{removed ? " (end removed) " : " (end added) "}</span>}
    </>
  );
}

/**
 * Decision 025, "what changed since the last review": the current transcript, read-only. When a
 * version was reviewed before the current one was saved, by default the word-level diff against
 * it ('Changes since the version admin1 rejected on 26 Nov 2026, 14:03', the reason, 'n changes';
 * removed words struck through and added ones underlined, both also announced as 'removed:' /
 * 'added:'), with 'Show changes' / 'Show plain text' buttons (aria-pressed) to switch to the
 * current text alone. Without such a version, the current text alone.
 */
export function TranscriptChanges({ history }: { history: TranscriptHistory }) {
  const [plain, setPlain] = useState(false);
  const headingId = useId();
  const before = history.lastReviewed?.text;
  const after = history.current?.text ?? "";
  const diff = useMemo(() => (before === undefined ? null : transcriptDiff(before, after)), [before, after]);
  const reviewed = history.lastReviewed;
  if (!reviewed) {
    return (
      <div className="transcript-view" data-testid="reviewed-transcript-text">
        {after}
      </div>
    );
  }
  const verb = reviewed.review.action === "reject" ? "rejected" : "approved";
  const showDiff = !plain && diff !== null;
  return (
    <section className="transcript-changes stack" aria-labelledby={headingId}>
      <div className="transcript-changes-head">
        <h3 id={headingId} className="panel-subtitle">
          Changes since the version {who(reviewed.review.reviewer)} {verb} on{" "}
          <time dateTime={reviewed.review.reviewedAt}>{reviewTime(reviewed.review.reviewedAt)}</time>
        </h3>
        {reviewed.review.reason && (
          <p className="muted transcript-changes-reason">Reason given: {reviewed.review.reason}</p>
        )}
        <p className="transcript-changes-count" data-testid="change-count">
          {diff
            ? `${changeCountLabel(diff.changes)} (${diff.removedWords} ${diff.removedWords === 1 ? "word" : "words"} removed, ${diff.addedWords} added)`
            : "The two versions are too different to compare word by word."}
        </p>
        <div className="row transcript-changes-toggle" role="group" aria-label="Show the transcript as">
          <button
            type="button"
            className="btn btn-sm toggle-btn"
            aria-pressed={!plain}
            disabled={diff === null}
            onClick={() => setPlain(false)}
          >
            <span className="toggle-mark" aria-hidden="true">
              {!plain ? "✓" : ""}
            </span>
            Show changes
          </button>
          <button type="button" className="btn btn-sm toggle-btn" aria-pressed={plain} onClick={() => setPlain(true)}>
            <span className="toggle-mark" aria-hidden="true">
              {plain ? "✓" : ""}
            </span>
            Show plain text
          </button>
        </div>
      </div>
      {showDiff ? (
        <div className="transcript-view transcript-diff" data-testid="transcript-diff">
          {diff.parts.map((part, index) => (
            <DiffRun key={index} part={part} />
          ))}
        </div>
      ) : (
        <div className="transcript-view" data-testid="reviewed-transcript-text">
          {after}
        </div>
      )}
    </section>
  );
}

/** One version in the history: file name, who saved it and when, how it was reviewed. */
function VersionItem({ version, lastReviewedId }: { version: TranscriptVersionEntry; lastReviewedId: string | null }) {
  return (
    <li className="version-item" data-testid="transcript-version">
      <div className="row version-head">
        <span className="version-file">{version.fileName}</span>
        {version.current && <span className="badge version-current">Current version</span>}
        {version.id === lastReviewedId && <span className="badge">Compared above</span>}
      </div>
      <p className="muted version-saved">
        Saved by {who(version.savedBy)} on <time dateTime={version.savedAt}>{reviewTime(version.savedAt)}</time>
      </p>
      <ul className="version-reviews">
        {version.reviews.length === 0 ? (
          <li>Not reviewed yet</li>
        ) : (
          version.reviews.map((review, index) => (
            <li key={index} data-action={review.action}>
              {reviewSentence(review)}
            </li>
          ))
        )}
      </ul>
    </li>
  );
}

/**
 * Decision 025: the 'Version history' disclosure (closed at first): each saved version, newest
 * first, with its file name, who saved it and when, the current one and the one compared marked,
 * and its reviews ('Rejected by admin1 on …: reason', 'Approved by …', 'Not reviewed yet').
 */
export function VersionHistory({ history }: { history: TranscriptHistory }) {
  const { versions } = history;
  if (versions.length === 0) return null;
  return (
    <details className="version-history">
      <summary>Version history ({versions.length === 1 ? "1 version" : `${versions.length} versions`})</summary>
      {versions.length >= HISTORY_CAP && <p className="muted">The {HISTORY_CAP} newest versions.</p>}
      <ol className="version-list">
        {versions.map((version) => (
          <VersionItem key={version.id} version={version} lastReviewedId={history.lastReviewed?.versionId ?? null} />
        ))}
      </ol>
    </details>
  );
}

/**
 * Decision 025, for an admin on the Translated Transcript screen: when the transcript was saved
 * again after a review, the changes since that review and the version history; nothing otherwise
 * (and nothing for staff: `enabled` false). Loading and failure are said in a line of their own.
 */
export function ChangesSinceReview({ audioId, enabled }: { audioId: string; enabled: boolean }) {
  const history = useTranscriptHistory(audioId, enabled);
  if (!enabled) return null;
  if (history.isPending) {
    return (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading the changes since the last review…
      </p>
    );
  }
  if (history.isError) {
    return (
      <div className="row" role="alert">
        <p className="field-error">Could not load the changes since the last review.</p>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => void history.refetch()}
          disabled={history.isFetching}
        >
          Retry
        </button>
      </div>
    );
  }
  if (!history.data.lastReviewed || !history.data.current) return null;
  return (
    <div className="stack changes-since-review">
      <TranscriptChanges history={history.data} />
      <VersionHistory history={history.data} />
    </div>
  );
}
