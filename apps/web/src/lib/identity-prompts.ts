import { REAUTH_REQUIRED, SECOND_FACTOR_ENROLMENT_REQUIRED } from "@tafsiri/domain";

/**
 * Decision 038: the server's two refusals that the whole app answers the same way, wherever they
 * come from: REAUTH_REQUIRED opens the 'Confirm it's you' dialog, SECOND_FACTOR_ENROLMENT_REQUIRED
 * sends an admin to enrolment. The query client's caches report every failure here (lib/trpc.ts).
 */
type Prompt = "confirm-identity" | "enrol";

const listeners = new Set<(prompt: Prompt) => void>();

/** Tells the listeners when a refusal's `reason` asks to confirm who the user is or to enrol a second factor. */
export function reportIdentityRefusal(reason: string | undefined): void {
  const prompt: Prompt | null =
    reason === REAUTH_REQUIRED ? "confirm-identity" : reason === SECOND_FACTOR_ENROLMENT_REQUIRED ? "enrol" : null;
  if (prompt) listeners.forEach((listener) => listener(prompt));
}

/** Subscribes to the prompts; answers the unsubscribe. */
export function onIdentityPrompt(listener: (prompt: Prompt) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
