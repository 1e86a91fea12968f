import type { TaskCard as Task } from "../../../lib/api-types";
import { Duration } from "@tafsiri/ui/duration";
import { StatusBadge } from "@tafsiri/ui/status-badge";
import { recordingApprovalLabel, transcriptApprovalLabel } from "../../../lib/approval-labels";
import { assigneeName, categoryCardClass, categoryName, taskTitle } from "../../../lib/task-labels";

/**
 * One task as a card button (SPEC §2.8): title, category, the audio's duration ('—' while not
 * known), assignee, the two stage chips (Completed green,
 * otherwise neutral), completion, and the transcript and recording approval labels. Green for
 * Control, red otherwise, with the category also written out (WCAG 1.4.1). Click or Enter opens
 * the audio.
 */
export function TaskCard({ task, onOpen }: { task: Task; onOpen: (audioId: string) => void }) {
  return (
    <button
      type="button"
      className={`card card-clickable task-card ${categoryCardClass(task.category)}`}
      data-testid="task-card"
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
      <span className="task-card-chips">
        <StatusBadge status={task.translationStatus} label={`Translation: ${task.translationStatus}`} />
        <StatusBadge status={task.recordingStatus} label={`Recording: ${task.recordingStatus}`} />
        <StatusBadge status={task.isComplete ? "Completed" : "Incomplete"} />
      </span>
      <span className="task-card-approvals">
        <span className="task-card-approval">
          <span className="muted">Script</span>
          <StatusBadge status={task.transcriptStatus} label={transcriptApprovalLabel(task.transcriptStatus)} />
        </span>
        <span className="task-card-approval">
          <span className="muted">Recorded audio</span>
          <StatusBadge
            status={task.recordingApprovalStatus}
            label={recordingApprovalLabel(task.recordingApprovalStatus)}
          />
        </span>
      </span>
    </button>
  );
}
