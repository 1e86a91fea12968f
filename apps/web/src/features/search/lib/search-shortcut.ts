/** The shortcuts that open the header search, as `aria-keyshortcuts` names them. */
export { SEARCH_KEYS as SEARCH_SHORTCUTS } from "#web/lib/key-registry";

/** True when `target` takes typed text (a field, a select or an editor), where '/' must stay a character. */
function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return (
    target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement
  );
}

/**
 * Whether a keydown opens the header search (SPEC §2.3): Ctrl+K (⌘K on a Mac) anywhere, or '/'
 * outside text fields. Neither applies while another dialog or menu is open on top of the page.
 */
export function isSearchShortcut(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.repeat || event.altKey) return false;
  const commandK = event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey) && !event.shiftKey;
  const slash = event.key === "/" && !event.ctrlKey && !event.metaKey && !isEditable(event.target);
  if (!commandK && !slash) return false;
  return document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]') === null;
}

/** The shortcut hint on the search button: '⌘K' on Apple systems, 'Ctrl K' elsewhere. */
export function shortcutHint(): string {
  return /Mac|iPhone|iPad/.test(navigator.userAgent) ? "⌘K" : "Ctrl K";
}
