import { useState } from "react";
import type { AudioDetail } from "../../../lib/api-types";
import { AudioPlayer, playerWaveform } from "@tafsiri/ui/audio-player";
import { sourceKey } from "../lib/source-key";

/**
 * SPEC §2.12, §2.13: 'Show original Audio' reveals a player for the original audio, which answers
 * the player shortcuts (PLAYER_SHORTCUTS). `waveform` is the audio's (`audios.get`), so the player draws its
 * stored peaks (ARCHITECTURE "Long recordings and the corpus").
 */
export function OriginalAudioToggle({ audioUrl, waveform }: { audioUrl: string; waveform: AudioDetail["waveform"] }) {
  const [shown, setShown] = useState(false);
  return (
    <div className="stack original-audio">
      <div>
        <button type="button" className="btn" aria-expanded={shown} onClick={() => setShown((s) => !s)}>
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
          />
        </>
      )}
    </div>
  );
}
