import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { AudioDetail } from "#web/lib/api-types";
import { AudioPlayer, playerWaveform } from "@tafsiri/ui/audio-player";
import { ageLabel } from "@tafsiri/domain";
import { sourceKey } from "#web/lib/source-key";
import { isRefusal } from "#web/lib/query-failure";
import "#web/styles/audio-player.css";

/** A plain GET of a text file (SPEC §7.2); a failed answer throws with its status text. */
async function fetchText(url: string): Promise<string> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(res.statusText || `HTTP ${res.status}`);
  return res.text();
}

/**
 * Decision 024: the audio's participant as everyone who may open the audio sees it, and nothing
 * more: 'Participant P0042 · Dementia · 72 y 3 m at recording' (the age left out when unknown).
 */
function ParticipantLine({ participant }: { participant: NonNullable<AudioDetail["participant"]> }) {
  const age = participant.ageMonthsAtRecording;
  return (
    <p className="audio-participant-line">
      Participant {participant.code} · {participant.group}
      {age !== null ? ` · ${ageLabel(age)} at recording` : ""}
    </p>
  );
}

/**
 * The Audio screen's panel (SPEC §2.11): the audio player (streaming the file and drawing its stored
 * peaks, ARCHITECTURE "Long recordings and the corpus") and the initial transcript behind a
 * 'Show Transcript' / 'Hide Transcript' toggle; 'No transcript attached' when there is no text.
 * When the audio is linked to a participant, the participant line (ParticipantLine) under the title.
 */
export function AudioView({ audio }: { audio: AudioDetail }) {
  const [shown, setShown] = useState(false);
  const url = audio.transcriptUrl;
  const text = useQuery({
    queryKey: ["initial-transcript-text", url ? sourceKey(url) : null],
    queryFn: () => fetchText(url ?? ""),
    enabled: shown && url !== null,
    staleTime: Infinity,
  });

  let transcript = null;
  if (!url) transcript = <p className="muted">No transcript attached</p>;
  else if (shown) {
    if (text.isPending) {
      transcript = (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Loading transcript…
        </p>
      );
    } else if (text.data === undefined || (text.isError && isRefusal(text.error))) {
      transcript = (
        <p className="field-error" role="alert">
          Failed to load transcript: {text.error?.message}
        </p>
      );
    } else if (!text.data.trim()) {
      transcript = <p className="muted">No transcript attached</p>;
    } else {
      transcript = (
        <div className="transcript-view" data-testid="initial-transcript">
          {text.data}
        </div>
      );
    }
  }

  return (
    <div className="stack">
      <div className="card stack">
        <h2 className="panel-title">Audio</h2>
        {audio.participant ? <ParticipantLine participant={audio.participant} /> : null}
        <AudioPlayer
          url={audio.audioUrl}
          sourceKey={sourceKey(audio.audioUrl)}
          label="Audio"
          shortcuts
          waveform={playerWaveform(audio.waveform)}
        />
      </div>
      <div className="card stack">
        <div className="row panel-header">
          <h2 className="panel-title">Transcript</h2>
          <button type="button" className="btn" aria-expanded={shown} onClick={() => setShown((s) => !s)}>
            {shown ? "Hide Transcript" : "Show Transcript"}
          </button>
        </div>
        {transcript}
      </div>
    </div>
  );
}
