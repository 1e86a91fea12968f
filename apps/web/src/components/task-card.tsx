import type { ReactNode } from "react";
import { Duration } from "@tafsiri/ui/duration";
import { StatusBadge } from "@tafsiri/ui/status-badge";
import type { TaskCard as TaskCardItem } from "#web/lib/api-types";
import { recordingApprovalLabel, transcriptApprovalLabel } from "#web/lib/approval-labels";
import { assigneeName, categoryCardClass, categoryName, taskTitle } from "#web/lib/task-labels";
import "#web/styles/task-card.css";

/** The task a card shows: a Tasks page item, or the task of a recommended recording. */
type CardTask = Omit<TaskCardItem, "id" | "transcriptStatus" | "recordingApprovalStatus">;

/** The two approval statuses a card labels (the task's own, or those a recommendation carries). */
type CardApprovals = Pick<TaskCardItem, "transcriptStatus" | "recordingApprovalStatus">;

/**
 * One task as a card button, shared by the Tasks page (SPEC §2.8) and the Recommended Recordings
 * page (SPEC §2.9): title ('Unnamed File', 'Unknown Audio'), category written out as well as the
 * card's colour (green for Control, red otherwise; WCAG 1.4.1), the audio's duration ('not known
 * yet' while unknown), 'Assigned to {username}', then `children` as a line of their own (the
 * Recommended Recordings page's 'Recommended to {username}'), the two stage chips, Completed or
 * Incomplete, and the transcript and recording approval labels. Click or Enter opens the audio.
 */
export function TaskCard({
  task,
  approvals,
  transcriptLabel,
  testId,
  onOpen,
  children,
}: {
  task: CardTask;
  approvals: CardApprovals;
  /**
   * The name of the transcript approval label, as each page's SPEC section words it: 'Script' on
   * the Tasks page (§2.8 'a script approval label'), 'Transcript' on the Recommended Recordings
   * page (§2.9 'approval status for transcript').
   */
  transcriptLabel: "Script" | "Transcript";
  /** The card's data-testid ('task-card', 'recommendation-card'), which the browser tests find it by. */
  testId: string;
  onOpen: (audioId: string) => void;
  /** A line under 'Assigned to', when the page has one (the recommendation's recipient). */
  children?: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`card card-clickable task-card ${categoryCardClass(task.category)}`}
      data-testid={testId}
      data-audio-id={task.audioId}
      data-category={task.category ?? undefined}
      onClick={() => onOpen(task.audioId)}
    >
      <span className="task-card-title">{taskTitle(task)}</span>
      <span className="task-card-assignee muted">Category: {categoryName(task.category)}</span>
      <span className="task-card-assignee muted task-card-duration">
        {/* One inline child: the card's spans are flex boxes, which would drop the space. */}
        <span>
          Duration: <Duration seconds={task.durationSeconds} unknownLabel="not known yet" />
        </span>
      </span>
      <span className="task-card-assignee muted">Assigned to {assigneeName(task)}</span>
      {children && <span className="task-card-assignee muted">{children}</span>}
      <span className="task-card-chips">
        <StatusBadge status={task.translationStatus} label={`Translation: ${task.translationStatus}`} />
        <StatusBadge status={task.recordingStatus} label={`Recording: ${task.recordingStatus}`} />
        <StatusBadge status={task.isComplete ? "Completed" : "Incomplete"} />
      </span>
      <span className="task-card-approvals">
        <span className="task-card-approval">
          <span className="muted">{transcriptLabel}</span>
          <StatusBadge
            status={approvals.transcriptStatus}
            label={transcriptApprovalLabel(approvals.transcriptStatus)}
          />
        </span>
        <span className="task-card-approval">
          <span className="muted">Recorded audio</span>
          <StatusBadge
            status={approvals.recordingApprovalStatus}
            label={recordingApprovalLabel(approvals.recordingApprovalStatus)}
          />
        </span>
      </span>
    </button>
  );
}
