import { AudioManagementLayout } from "#web/features/audiomanagement/components/audio-management-layout";
import { FeedbackPanel } from "#web/features/feedback/components/feedback-panel";

/** /audiomanagement/feedback: the Feedback screen (SPEC §2.14). */
export function Component() {
  return <AudioManagementLayout section="Feedback">{(audio) => <FeedbackPanel audio={audio} />}</AudioManagementLayout>;
}
