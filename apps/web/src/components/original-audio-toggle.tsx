import { useState, type Ref } from "react";
import type { AudioDetail } from "#web/lib/api-types";
import { AudioPlayer, playerWaveform, type AudioPlayerHandle, type PlayerShortcut } from "@tafsiri/ui/audio-player";
import { sourceKey } from "#web/lib/source-key";
import "#web/styles/audio-player.css";
import "./original-audio-toggle.css";

/**
 * SPEC §2.12, §2.13: 'Show original Audio' reveals a player for the original audio, which answers
 * the player shortcuts (PLAYER_SHORTCUTS). `waveform` is the audio's (`audios.get`), so the player draws its
 * stored peaks (ARCHITECTURE "Long recordings and the corpus"). The transcript panel (decision 024)
 * may also hold whether it is shown (`shown`, `onShownChange`), receive the player's handle
 * (`playerRef`) and list its editor's keys in the player's 'Shortcuts' (`moreShortcuts`).
 */
export function OriginalAudioToggle({
  audioUrl,
  waveform,
  shown: heldShown,
  onShownChange,
  playerRef,
  moreShortcuts,
}: {
  audioUrl: string;
  waveform: AudioDetail["waveform"];
  shown?: boolean;
  onShownChange?: (shown: boolean) => void;
  playerRef?: Ref<AudioPlayerHandle>;
  moreShortcuts?: readonly PlayerShortcut[];
}) {
  const [ownShown, setOwnShown] = useState(false);
  const shown = heldShown ?? ownShown;
  const toggle = () => (onShownChange ? onShownChange(!shown) : setOwnShown(!shown));
  return (
    <div className="stack original-audio">
      <div>
        <button type="button" className="btn" aria-expanded={shown} onClick={toggle}>
          {shown ? "Hide original Audio" : "Show original Audio"}
        </button>
      </div>
      {shown && (
        <>
          <p className="muted original-audio-caption">Original audio</p>
          <AudioPlayer
            url={audioUrl}
            sourceKey={sourceKey(audioUrl)}
            label="Original audio"
            shortcuts
            waveform={playerWaveform(waveform)}
            moreShortcuts={moreShortcuts}
            ref={playerRef}
          />
        </>
      )}
    </div>
  );
}
