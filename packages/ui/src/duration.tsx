/** What a missing duration says to assistive technology (and as its tooltip) by default. */
const DURATION_UNKNOWN = "Duration not known yet";

/**
 * A length of audio as shown on every screen: takes seconds (any non-negative number, rounded to
 * the nearest whole second) and returns 'm:ss' under an hour ('4:05', '0:07') and 'h:mm:ss' from
 * an hour on ('1:02:03'). Negative or non-finite input is treated as 0.
 */
export function formatDuration(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/**
 * Takes seconds and returns the ISO 8601 duration of an HTML `<time datetime>` (e.g. 'PT1H2M3S'),
 * rounded to whole seconds as formatDuration rounds.
 */
export function isoDuration(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0;
  return `PT${Math.floor(whole / 3600)}H${Math.floor((whole % 3600) / 60)}M${whole % 60}S`;
}

/**
 * An audio's duration (`seconds`, null while the server has not decoded the file or could not):
 * a `<time>` holding formatDuration's text, or '—' that reads `unknownLabel` ('Duration not known
 * yet' by default) to assistive technology and as a tooltip.
 */
export function Duration({
  seconds,
  unknownLabel = DURATION_UNKNOWN,
}: {
  seconds: number | null;
  unknownLabel?: string;
}) {
  if (seconds === null) {
    return (
      <span className="duration duration-unknown" title={unknownLabel} data-duration="unknown">
        <span aria-hidden="true">—</span>
        <span className="sr-only">{unknownLabel}</span>
      </span>
    );
  }
  return (
    <time className="duration" dateTime={isoDuration(seconds)}>
      {formatDuration(seconds)}
    </time>
  );
}
