/**
 * Dataset exports (decision 019, amended by decision 024), imported as
 * `@tafsiri/db/repositories/exports` (packages/db/package.json "exports"), one file a job:
 *
 * - `rows.ts`: the exports table's rows (insert, read, the Export page's list);
 * - `starts.ts`: what starting an export checks under one lock (running choice, room, abandoned ones);
 * - `states.ts`: what a running export's job writes (progress, content, done, failed);
 * - `selection.ts`: what an export selects (the approved work, the consent gate, its summary);
 * - `selected-audios.ts`: the audios an export holds, a page at a time, for its files and manifests;
 * - `reuse.ts`: the previous export of a choice and the files it wrote, for reuse by content;
 * - `supersede.ts`: the participants an export holds, and superseding on consent withdrawal;
 * - `downloads.ts`: what the file route asks about a stored zip (its name, whether superseded).
 */
export { exportFileName, isSupersededExportFile } from "./downloads";
export { exportFileRecords, insertExportFiles, latestFinishedExport, type ExportFileRecord } from "./reuse";
export { findExport, insertExport, listExportPage, type ExportRow } from "./rows";
export { exportSelectionPage, type ExportedAudio, type ExportedParticipant } from "./selected-audios";
export { exportSelectionSummary, LEFT_OUT_REASONS, type ExportSelection, type LeftOutCounts } from "./selection";
export { countRunningExports, failAbandonedExports, lockExportStarts, runningExportOf } from "./starts";
export { failExport, finishExport, setExportContent, setExportProgress } from "./states";
export {
  insertExportParticipants,
  markExportsSuperseded,
  participantCodeOf,
  participantsNoLongerConsenting,
} from "./supersede";
