import type { WaveformStatus } from "@tafsiri/db";
import type { Waveform } from "../schemas/common";
import { signFileUrl } from "../services/file-urls";

/**
 * The waveform of a stored audio file as the player needs it (ZWaveform): its status, a signed
 * URL of its peaks (only when ready) and its duration in seconds (ARCHITECTURE "Long recordings").
 */
export function waveformOf(
  jwtSecret: Uint8Array,
  row: { waveformStatus: WaveformStatus; peaksKey: string | null; durationSeconds: number | null },
): Waveform {
  const ready = row.waveformStatus === "ready" && row.peaksKey !== null;
  return {
    status: ready ? "ready" : row.waveformStatus === "ready" ? "pending" : row.waveformStatus,
    peaksUrl: ready && row.peaksKey ? signFileUrl(jwtSecret, row.peaksKey) : null,
    durationSeconds: row.durationSeconds,
  };
}
