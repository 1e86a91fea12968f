/**
 * Screen-reader announcements (WCAG 4.1.3): anything in the app may call
 * `announce`; the LiveAnnouncer mounted once by the app provider reads it out through its live
 * regions. A plain module, so code outside React (a query callback, a toast) can announce too.
 */

/** 'polite' waits until the screen reader is quiet; 'assertive' interrupts it (errors only). */
export type Politeness = "polite" | "assertive";

/** Receives each announcement. */
export type AnnouncementListener = (message: string, politeness: Politeness) => void;

const listeners = new Set<AnnouncementListener>();

/** Says `message` once to screen-reader users; blank messages are ignored. */
export function announce(message: string, politeness: Politeness = "polite"): void {
  const text = message.trim();
  if (!text) return;
  for (const listener of listeners) listener(text, politeness);
}

/** Calls `listener` for every announcement from now on; answers the function that stops it. */
export function onAnnouncement(listener: AnnouncementListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
