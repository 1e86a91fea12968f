import type { RouterInputs, RouterOutputs } from "@tafsiri/api";

// The shapes of the `participants` procedures the web app reads and sends (decision 024). Types
// only: the web app never imports server code.

/** One participant as admins see it (`participants.get`, and each row of `participants.list`). */
export type Participant = RouterOutputs["participants"]["get"];
/** What `participants.create` takes: every field of a participant. */
export type ParticipantInput = RouterInputs["participants"]["create"];
/** One refused line of a CSV import (`participants.importCsv`): the CSV line (the header is 1) and why. */
export type ImportProblem = RouterOutputs["participants"]["importCsv"]["problems"][number];
