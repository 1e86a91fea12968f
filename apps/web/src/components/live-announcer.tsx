import { useEffect, useRef, useState } from "react";
import { onAnnouncement, type Politeness } from "#web/lib/announce";

/** How long an announcement stays in its region before it is removed (ms); long enough to be read. */
const KEEP_MS = 10_000;

interface Announcement {
  id: number;
  text: string;
  politeness: Politeness;
}

/**
 * The app's two live regions: a polite one (role status) and an assertive one
 * (role alert), both visually hidden. Each announcement is added as a new line, so the screen
 * reader reads it once, even when the same words come twice in a row, and is removed after
 * KEEP_MS. Mounted once, by the app provider.
 */
export function LiveAnnouncer() {
  const [lines, setLines] = useState<Announcement[]>([]);
  const nextId = useRef(0);

  useEffect(() => {
    const timers = new Set<number>();
    const stop = onAnnouncement((text, politeness) => {
      const id = (nextId.current += 1);
      setLines((current) => [...current, { id, text, politeness }]);
      const timer = window.setTimeout(() => {
        timers.delete(timer);
        setLines((current) => current.filter((line) => line.id !== id));
      }, KEEP_MS);
      timers.add(timer);
    });
    return () => {
      stop();
      for (const timer of timers) window.clearTimeout(timer);
    };
  }, []);

  const region = (politeness: Politeness) =>
    lines
      .filter((line) => line.politeness === politeness)
      .map((line) => (
        <p key={line.id} data-announcement>
          {line.text}
        </p>
      ));

  return (
    <div className="sr-only" data-testid="live-announcer">
      <div role="status" aria-live="polite" aria-relevant="additions" data-politeness="polite">
        {region("polite")}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="false" aria-relevant="additions" data-politeness="assertive">
        {region("assertive")}
      </div>
    </div>
  );
}
