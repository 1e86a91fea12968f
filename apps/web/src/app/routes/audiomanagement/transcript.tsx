import { AudioManagementLayout } from "#web/features/audiomanagement/components/audio-management-layout";
import { TranscriptPanel } from "#web/features/audiomanagement/components/transcript-panel";

/** /audiomanagement/trascript: the Translated Transcript screen (SPEC §2.12). */
export function Component() {
  return (
    <AudioManagementLayout section="Translated Transcript">
      {(audio) => <TranscriptPanel audio={audio} />}
    </AudioManagementLayout>
  );
}
