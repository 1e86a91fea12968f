import { AudioManagementLayout } from "#web/features/audio/components/audio-management-layout";
import { AudioView } from "#web/features/audio/components/audio-view";

/** /audiomanagement/audiocontrol: the Audio view (SPEC §2.11). */
export function Component() {
  return <AudioManagementLayout section="Audio">{(audio) => <AudioView audio={audio} />}</AudioManagementLayout>;
}
