/**
 * Whether the server can be reached (SPEC §7.3, decision 021): staff on a flaky mobile link
 * see a banner while it cannot, and what they save meanwhile is held, not lost.
 *
 * The connection is lost when the browser says it is offline, or when a call to the server fails
 * at network level (no answer at all; a 4xx or 5xx answer is an answer), or when the live
 * WebSocket closes and a check of the server then fails. From then on the server is asked again
 * (GET /healthz, any answer counts) 1 s, 2 s, 4 s … at most 10 s apart, and at once when the
 * browser says it is online again; the first answer, from it or from any other call, restores it.
 *
 * TanStack Query's onlineManager follows this state (see watchConnection): while it is lost,
 * queries wait and mutations (networkMode 'online', the default) are held, paused before they are
 * sent, and sent once it returns. A plain module, so the tRPC client's fetch and WebSocket (outside
 * React) can report to it.
 */
import { onlineManager } from "@tanstack/react-query";
import { announce } from "./announce";
import { CONNECTION_ERROR } from "./rest";

/** 'reconnected' for a few seconds after the connection came back, then 'connected'. */
export type ConnectionStatus = "connected" | "disconnected" | "reconnected";

/** What the banner says, and announces once, when the connection comes back. */
export const RECONNECTED = "Connected again.";

/** How long 'Connected again.' stays (ms). */
const RECONNECTED_MS = 5_000;
/** Where the server is asked whether it answers: the documented health check, cheap and not rate limited. */
const PROBE_URL = "/healthz";
/** A check without an answer in this time counts as failed (a dead link may leave it hanging). */
const PROBE_TIMEOUT_MS = 8_000;

let status: ConnectionStatus = "connected";
const listeners = new Set<() => void>();
let probeTimer: number | null = null;
let reconnectedTimer: number | null = null;
let probeAttempt = 0;
let probing = false;

/** 1 s, 2 s, 4 s … at most 10 s between checks while the server cannot be reached. */
function probeDelay(attempt: number): number {
  return Math.min(1_000 * 2 ** attempt, 10_000);
}

function setStatus(next: ConnectionStatus): void {
  if (next === status) return;
  status = next;
  for (const listener of listeners) listener();
}

function clearTimer(timer: number | null): null {
  if (timer !== null) window.clearTimeout(timer);
  return null;
}

/** Marks the connection lost (announced once, assertively) and keeps checking for the server. */
function lose(): void {
  reconnectedTimer = clearTimer(reconnectedTimer);
  if (status !== "disconnected") {
    probeAttempt = 0;
    setStatus("disconnected");
    announce(CONNECTION_ERROR, "assertive");
  }
  scheduleProbe();
}

/** Marks the connection back (announced once), 'Connected again.' for RECONNECTED_MS. */
function regain(): void {
  probeTimer = clearTimer(probeTimer);
  probeAttempt = 0;
  if (status !== "disconnected") return;
  setStatus("reconnected");
  announce(RECONNECTED);
  reconnectedTimer = window.setTimeout(() => {
    reconnectedTimer = null;
    if (status === "reconnected") setStatus("connected");
  }, RECONNECTED_MS);
}

function scheduleProbe(): void {
  if (probeTimer !== null || probing) return;
  probeTimer = window.setTimeout(() => {
    probeTimer = null;
    void probe();
  }, probeDelay(probeAttempt));
  probeAttempt += 1;
}

/** Asks the server once; any answer means it is reachable, a network failure or time-out that it is not. */
async function probe(): Promise<void> {
  if (probing) return;
  probing = true;
  probeTimer = clearTimer(probeTimer);
  let answered = false;
  try {
    await fetch(PROBE_URL, { cache: "no-store", signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    answered = true;
  } catch {
    answered = false;
  } finally {
    probing = false;
  }
  if (answered) regain();
  else lose();
}

/** The connection as it is now. */
export function connectionStatus(): ConnectionStatus {
  return status;
}

/** Calls `listener` on every change of connectionStatus(); answers the function that stops it. */
export function subscribeConnection(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Whether a mutation started now is held until the connection returns (TanStack Query pauses it
 * before sending), so the screen can say so.
 */
export function sendsLater(): boolean {
  return !onlineManager.isOnline();
}

/** A call to the server failed at network level (no answer): the connection is lost. */
export function reportNetworkFailure(): void {
  lose();
}

/** The server answered a call (any status) or the live WebSocket opened: the connection is there. */
export function reportServerAnswer(): void {
  if (status === "disconnected") regain();
}

/**
 * Checks the server now unless the connection is already known lost (then it is checked on its
 * schedule): for the live WebSocket closing unexpectedly, which may or may not mean the server is gone.
 */
export function checkServer(): void {
  if (status !== "disconnected") void probe();
}

/**
 * Starts following the connection: the browser's offline and online events,
 * and TanStack Query's onlineManager set from connectionStatus() instead of from those events
 * alone (an 'online' event only leads to a check of the server). Answers the function that stops
 * it. Mounted once, by the app provider.
 */
export function watchConnection(): () => void {
  const onOffline = () => lose();
  const onOnline = () => {
    probeAttempt = 0;
    void probe();
  };
  window.addEventListener("offline", onOffline);
  window.addEventListener("online", onOnline);
  onlineManager.setEventListener((setOnline) => {
    setOnline(status !== "disconnected");
    return subscribeConnection(() => setOnline(status !== "disconnected"));
  });
  if (!navigator.onLine) lose();
  return () => {
    window.removeEventListener("offline", onOffline);
    window.removeEventListener("online", onOnline);
  };
}
