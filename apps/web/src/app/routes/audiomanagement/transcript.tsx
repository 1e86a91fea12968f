import { AudioManagementLayout } from "#web/features/audio/components/audio-management-layout";
import { TranscriptPanel } from "#web/features/transcript/components/transcript-panel";

/** /audiomanagement/trascript: the Translated Transcript screen (SPEC §2.12). */
export function Component() {
  return (
    <AudioManagementLayout section="Translated Transcript">
      {(audio) => <TranscriptPanel audio={audio} />}
    </AudioManagementLayout>
  );
}
