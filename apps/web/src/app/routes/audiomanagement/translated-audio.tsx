import { AudioManagementLayout } from "#web/features/audio/components/audio-management-layout";
import { RecordingPanel } from "#web/features/recording/components/recording-panel";

/** /audiomanagement/translatedaudio: the Translated Audio screen (SPEC §2.13). */
export function Component() {
  return (
    <AudioManagementLayout section="Translated Audio">
      {(audio) => <RecordingPanel audio={audio} />}
    </AudioManagementLayout>
  );
}
