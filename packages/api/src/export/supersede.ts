import type { Executor } from "@tafsiri/db";

/**
 * Decision 024: a participant withdrew consent; marks the ready exports that hold them superseded
 * (their links then answer 410) and audits each, inside the caller's transaction. Returns how many
 * exports it superseded. Placeholder: filled by the exports change.
 */
export async function supersedeExportsOfParticipant(
  _db: Executor,
  _participantId: string,
  _actorId: string | null,
): Promise<number> {
  // filled by the exports change
  return 0;
}
