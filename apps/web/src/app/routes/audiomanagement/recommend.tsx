import { AudioManagementLayout } from "#web/features/audio/components/audio-management-layout";
import { RecommendPanel } from "#web/features/recommendations/components/recommend-panel";

/** /audiomanagement/recommend: the Recommend screen (SPEC §2.15). */
export function Component() {
  return (
    <AudioManagementLayout section="Recommend Audio">
      {(audio) => <RecommendPanel audio={audio} />}
    </AudioManagementLayout>
  );
}
