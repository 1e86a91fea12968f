import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Tabs } from "radix-ui";
import { AudioManagementLayout } from "#web/features/audio/components/audio-management-layout";
import { TranscriptPanel } from "#web/features/transcript/components/transcript-panel";
import { TranslationWorkspace } from "#web/features/translation/components/translation-workspace";
import { useMicrophoneRecorder } from "#web/features/recording/hooks/use-microphone-recorder";
import type { AudioDetail } from "#web/lib/api-types";
import { useTRPC } from "#web/lib/trpc";

type View = "segments" | "text";

/**
 * The Translated Transcript screen's two views: the segment grid (decision 035), first when the
 * audio has a source transcript, and the transcript as one text (SPEC §2.12's editor).
 */
function TranscriptViews({ audio }: { audio: AudioDetail }) {
  const trpc = useTRPC();
  const grid = useQuery(trpc.translation.segments.queryOptions({ audioId: audio.id }, { refetchOnWindowFocus: false }));
  const [chosen, setChosen] = useState<View | null>(null);
  const view: View = chosen ?? (grid.data?.hasSourceTranscript ? "segments" : "text");
  return (
    <Tabs.Root value={view} onValueChange={(value) => setChosen(value as View)} className="stack">
      <Tabs.List className="view-switch" aria-label="Translated Transcript views">
        <Tabs.Trigger value="segments" className="btn btn-sm">
          Segments
        </Tabs.Trigger>
        <Tabs.Trigger value="text" className="btn btn-sm">
          Full text
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="segments" className="card stack">
        <h2 className="panel-title">Translated Transcript, segment by segment</h2>
        {view === "segments" && <TranslationWorkspace audio={audio} useRecorder={useMicrophoneRecorder} />}
      </Tabs.Content>
      <Tabs.Content value="text">{view === "text" && <TranscriptPanel audio={audio} />}</Tabs.Content>
    </Tabs.Root>
  );
}

/** /audiomanagement/trascript: the Translated Transcript screen (SPEC §2.12; segments by decision 035). */
export function Component() {
  return (
    <AudioManagementLayout section="Translated Transcript">
      {(audio) => <TranscriptViews audio={audio} />}
    </AudioManagementLayout>
  );
}
