/**
 * A wait in seconds as the Reviews section shows it (decision 025): the two largest units, e.g.
 * '3 h 20 min', '2 d 4 h', '45 min'; '< 1 min' under a minute. Whole minutes, rounded down.
 */
export function formatWait(seconds: number): string {
  const minutes = Math.floor(Math.max(seconds, 0) / 60);
  if (minutes < 1) return "< 1 min";
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}

/** The same wait spelled out for screen readers, e.g. '3 hours 20 minutes'. */
export function spokenWait(seconds: number): string {
  return formatWait(seconds)
    .replace("< 1 min", "less than a minute")
    .replace(/(\d+) d\b/, (_, n: string) => `${n} ${n === "1" ? "day" : "days"}`)
    .replace(/(\d+) h\b/, (_, n: string) => `${n} ${n === "1" ? "hour" : "hours"}`)
    .replace(/(\d+) min\b/, (_, n: string) => `${n} ${n === "1" ? "minute" : "minutes"}`);
}
