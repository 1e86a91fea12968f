import { useCallback, useState } from "react";
import { useMediaQuery } from "#web/hooks/use-media-query";

/** SPEC §9: local storage key of the remembered expanded/collapsed state ("true" / "false"). */
const SIDEBAR_EXPANDED_KEY = "sidebar-expanded";
/** Up to this width the sidebar is off-canvas and slides in (SPEC §2.2). */
const SMALL_SCREEN = "(max-width: 1024px)";

function readExpanded(): boolean {
  try {
    return localStorage.getItem(SIDEBAR_EXPANDED_KEY) !== "false";
  } catch {
    return true;
  }
}

/** The sidebar's UI state (SPEC §2.2, §3 "UI only"). */
export interface SidebarState {
  /** Wide screens: full width with labels (true) or icons only (false); persisted. */
  expanded: boolean;
  /** Small screens: slid in (true) or hidden (false). */
  open: boolean;
  /** The screen is at most 1024 px wide. */
  small: boolean;
  setExpanded: (expanded: boolean) => void;
  setOpen: (open: boolean) => void;
  /** The header toggle: slides in/out on small screens, expands/collapses otherwise. */
  toggle: () => void;
}

/** Holds the sidebar state; expanded/collapsed is read from and written to local storage. */
export function useSidebarState(): SidebarState {
  const small = useMediaQuery(SMALL_SCREEN);
  const [expanded, setExpandedState] = useState(readExpanded);
  const [open, setOpen] = useState(false);

  const setExpanded = useCallback((value: boolean) => {
    setExpandedState(value);
    try {
      localStorage.setItem(SIDEBAR_EXPANDED_KEY, String(value));
    } catch {
      // Storage can be unavailable (private mode); the state still applies for this visit.
    }
  }, []);

  const toggle = useCallback(() => {
    if (small) setOpen((o) => !o);
    else setExpanded(!expanded);
  }, [small, expanded, setExpanded]);

  return { expanded, open, small, setExpanded, setOpen, toggle };
}
