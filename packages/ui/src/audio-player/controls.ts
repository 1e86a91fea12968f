/** SPEC §9 audio player constants: the volume it starts at and the range of its slider (0.01..1). */
export const DEFAULT_VOLUME = 0.5;
export const VOLUME_RANGE = { min: 0.01, max: 1, step: 0.025 } as const;

/** The playback speeds of the speed menu, slowest first. */
export const PLAYBACK_SPEEDS = [
  // Slower than SPEC §9's speeds, for transcribing.
  { label: "Slowest", rate: 0.25 },
  { label: "Very Slow", rate: 0.5 },
  { label: "Slow", rate: 0.75 },
  { label: "Normal", rate: 1 },
  { label: "Quick", rate: 1.5 },
  { label: "Very Quick", rate: 2 },
] as const;

/** The zoom slider: pixels per second of audio, 0 meaning the whole audio fits the width. */
export const ZOOM_RANGE = { min: 0, max: 200, step: 10 } as const;

/**
 * The speed one step faster (`direction` +1) or slower (-1) than `rate` (a playback rate, 1 =
 * normal) among PLAYBACK_SPEEDS, kept at the ends; a rate not in the list counts as Normal.
 * SPEC §9 speeds, with the slower ones docs/features.md's 'A player made for transcribing' adds.
 */
export function nextSpeed(rate: number, direction: 1 | -1): number {
  const index = PLAYBACK_SPEEDS.findIndex((s) => s.rate === rate);
  const from = index < 0 ? PLAYBACK_SPEEDS.findIndex((s) => s.rate === 1) : index;
  const next = Math.min(PLAYBACK_SPEEDS.length - 1, Math.max(0, from + direction));
  return PLAYBACK_SPEEDS[next]!.rate;
}
