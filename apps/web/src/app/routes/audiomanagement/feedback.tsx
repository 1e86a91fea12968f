import { AudioManagementLayout } from "#web/features/audio/components/audio-management-layout";
import { FeedbackPanel } from "#web/features/comments/components/feedback-panel";

/** /audiomanagement/feedback: the Feedback screen (SPEC §2.14). */
export function Component() {
  return <AudioManagementLayout section="Feedback">{(audio) => <FeedbackPanel audio={audio} />}</AudioManagementLayout>;
}
