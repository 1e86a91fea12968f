import { useParams } from "react-router";
import { ManagementLayout } from "#web/app/layouts/management-layout";
import { ParticipantDetails } from "#web/features/participants/components/participant-details";
import { useParticipant } from "#web/features/participants/hooks/use-participant";

/** Decision 024: a participant's page (/management/participants/:participantId, Admin), titled with their code. */
export function Component() {
  const { participantId = "" } = useParams();
  const participant = useParticipant(participantId);
  return (
    <ManagementLayout title={participant.data ? `Participant ${participant.data.code}` : "Participant"}>
      <ParticipantDetails participantId={participantId} />
    </ManagementLayout>
  );
}
