import { useLayoutEffect, useRef } from "react";
import { useConnectionStatus } from "#web/hooks/use-connection-status";
import { RECONNECTED } from "#web/lib/connection";
import { CONNECTION_ERROR } from "#web/lib/rest";

/** The CSS variable holding the banner's height, by which the sticky header and sidebar move down. */
const HEIGHT_VAR = "--connection-banner-height";

/** A struck-through cloud: no connection (the words say it too, not the colour alone). */
function OfflineIcon() {
  return (
    <svg className="connection-banner-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
      <path
        d="M7 18h10a4 4 0 0 0 .8-7.9A6 6 0 0 0 6.3 9.1 4.5 4.5 0 0 0 7 18Z"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <path d="M4 3l16 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** A tick in a circle: connected again. */
function OnlineIcon() {
  return (
    <svg className="connection-banner-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
      <path
        d="M8 12.5l2.7 2.7L16.5 9.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * The connection banner (SPEC §7.3, decision 021), on every screen, signed in or not: 'Cannot
 * connect to the server. Please try again later.' while the server cannot be reached (the browser
 * is offline or calls get no answer), then 'Connected again.' for a few seconds; nothing otherwise.
 * It sticks to the top of the page and sets --connection-banner-height, so the sticky header and
 * sidebar sit below it. A status, but not a live region: lib/connection announces each change
 * once through the app's LiveAnnouncer (a live region inserted with its text is not read
 * reliably, and would be read twice). Returns null while connected.
 */
export function ConnectionBanner() {
  const status = useConnectionStatus();
  const ref = useRef<HTMLDivElement>(null);
  const shown = status !== "connected";

  useLayoutEffect(() => {
    const root = document.documentElement;
    const banner = ref.current;
    if (!shown || !banner) return;
    const measure = () => root.style.setProperty(HEIGHT_VAR, `${banner.offsetHeight}px`);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(banner);
    return () => {
      observer.disconnect();
      root.style.removeProperty(HEIGHT_VAR);
    };
  }, [shown]);

  if (!shown) return null;
  const down = status === "disconnected";
  return (
    <div
      ref={ref}
      className="connection-banner"
      data-state={down ? "disconnected" : "reconnected"}
      data-testid="connection-banner"
      role="status"
      aria-live="off"
    >
      {down ? <OfflineIcon /> : <OnlineIcon />}
      <p className="connection-banner-text">{down ? CONNECTION_ERROR : RECONNECTED}</p>
    </div>
  );
}
