import { useEffect, useRef, useState, type ReactNode } from "react";
import { TOASTER_HOTKEY } from "#web/lib/key-registry";
import { Toaster, useSonner, type ToastT } from "sonner";
import { announce } from "#web/lib/announce";

const NARROW = "(max-width: 768px)";

/** A toast's title or description as plain text ('' for anything else). */
function plainText(content: (() => ReactNode) | ReactNode): string {
  return typeof content === "string" || typeof content === "number" ? String(content) : "";
}

/** What a screen reader says for a toast: its title, then its description. */
function toastText(toast: ToastT): string {
  return [plainText(toast.title), plainText(toast.description)].filter(Boolean).join(". ");
}

/**
 * Announces each toast once when it appears: errors assertively, the rest
 * politely. Sonner's own region would read every toast politely, errors too, so it is silenced.
 */
function useToastAnnouncements(container: React.RefObject<HTMLDivElement | null>) {
  const { toasts } = useSonner();
  const announced = useRef(new Set<ToastT["id"]>());

  useEffect(() => {
    // Set once: sonner writes aria-live="polite" when it mounts its section and never again.
    container.current?.querySelector("section[aria-live]")?.setAttribute("aria-live", "off");
  }, [container]);

  useEffect(() => {
    const current = new Set(toasts.map((t) => t.id));
    for (const toast of toasts) {
      if (announced.current.has(toast.id) || toast.delete) continue;
      announced.current.add(toast.id);
      announce(toastText(toast), toast.type === "error" ? "assertive" : "polite");
    }
    for (const id of announced.current) if (!current.has(id)) announced.current.delete(id);
  }, [toasts]);
}

/**
 * SPEC §2.1, §9: toasts top-center up to 768 px wide, bottom-right otherwise; 4000 ms, 3 visible.
 * Each is announced once (errors assertively) through the app's LiveAnnouncer.
 */
export function AppToaster() {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches);
  const container = useRef<HTMLDivElement>(null);
  useToastAnnouncements(container);
  useEffect(() => {
    const query = window.matchMedia(NARROW);
    const onChange = () => setNarrow(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return (
    <div ref={container}>
      <Toaster
        position={narrow ? "top-center" : "bottom-right"}
        duration={4000}
        visibleToasts={3}
        gap={14}
        hotkey={TOASTER_HOTKEY}
        richColors
        closeButton
      />
    </div>
  );
}
