import { useState, type ReactNode } from "react";
import type { Participant } from "#web/features/participants/lib/participant-types";
import { ParticipantPanel } from "./participant-panel";

/**
 * An "Edit" button opening the participant's side panel (decision 024): `children` is its content,
 * `describedBy` the id of what names the participant.
 */
export function EditParticipantButton({
  participant,
  className = "btn",
  describedBy,
  children,
}: {
  participant: Participant;
  className?: string;
  describedBy?: string;
  children: ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  return (
    <ParticipantPanel
      mode="edit"
      participant={participant}
      open={editing}
      onOpenChange={setEditing}
      trigger={
        <button type="button" className={className} aria-describedby={describedBy}>
          {children}
        </button>
      }
    />
  );
}
