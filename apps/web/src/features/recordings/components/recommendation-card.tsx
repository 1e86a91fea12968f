import { Duration } from "@tafsiri/ui/duration";
import { StatusBadge } from "@tafsiri/ui/status-badge";
import type { RecommendedRecording } from "../../../lib/api-types";
import { recordingApprovalLabel, transcriptApprovalLabel } from "../../../lib/approval-labels";
import { assigneeName, categoryCardClass, categoryName, taskTitle } from "../../../lib/task-labels";
import { recipientName } from "../lib/recommendation-labels";

/**
 * One recommended recording as a card button (SPEC §2.9): audio name and category (as text, and
 * the card green for Control, red otherwise), the audio's duration ('—' while not known), assignee, recipient, the two stage chips (Completed
 * green, otherwise neutral), completion, and the transcript and recording approval labels.
 * Click or Enter opens the audio.
 */
export function RecommendationCard({
  recommendation,
  onOpen,
}: {
  recommendation: RecommendedRecording;
  onOpen: (audioId: string) => void;
}) {
  const { task } = recommendation;
  return (
    <button
      type="button"
      className={`card card-clickable task-card ${categoryCardClass(task.category)}`}
      data-testid="recommendation-card"
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
      <span className="task-card-assignee">Assigned to {assigneeName(task)}</span>
      <span className="task-card-assignee">Recommended to {recipientName(recommendation)}</span>
      <span className="task-card-chips">
        <StatusBadge status={task.translationStatus} label={`Translation: ${task.translationStatus}`} />
        <StatusBadge status={task.recordingStatus} label={`Recording: ${task.recordingStatus}`} />
        <StatusBadge status={task.isComplete ? "Completed" : "Incomplete"} />
      </span>
      <span className="task-card-approvals">
        <span className="task-card-approval">
          <span className="muted">Transcript</span>
          <StatusBadge
            status={recommendation.transcriptStatus}
            label={transcriptApprovalLabel(recommendation.transcriptStatus)}
          />
        </span>
        <span className="task-card-approval">
          <span className="muted">Recorded audio</span>
          <StatusBadge
            status={recommendation.recordingApprovalStatus}
            label={recordingApprovalLabel(recommendation.recordingApprovalStatus)}
          />
        </span>
      </span>
    </button>
  );
}
