import { useEffect, useState } from "react";
import { Toaster } from "sonner";

const NARROW = "(max-width: 768px)";

/** SPEC §2.1, §9: toasts top-center up to 768 px wide, bottom-right otherwise; 4000 ms, 3 visible. */
export function AppToaster() {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches);
  useEffect(() => {
    const query = window.matchMedia(NARROW);
    const onChange = () => setNarrow(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return (
    <Toaster
      position={narrow ? "top-center" : "bottom-right"}
      duration={4000}
      visibleToasts={3}
      gap={14}
      hotkey={["altKey", "KeyT"]}
      richColors
      closeButton
    />
  );
}
