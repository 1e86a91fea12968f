import { AudioManagementLayout } from "#web/features/audio/components/audio-management-layout";
import { RecordingPanel } from "#web/features/recording/components/recording-panel";
import { SpanMatcher } from "#web/features/translation/components/span-matcher";

/**
 * /audiomanagement/translatedaudio: the Translated Audio screen (SPEC §2.13), and below it, after a
 * whole recording is uploaded, its matching to the segments (decision 035).
 */
export function Component() {
  return (
    <AudioManagementLayout section="Translated Audio">
      {(audio) => (
        <>
          <RecordingPanel audio={audio} />
          <SpanMatcher audio={audio} />
        </>
      )}
    </AudioManagementLayout>
  );
}
