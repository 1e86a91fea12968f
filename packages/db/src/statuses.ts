import type { Category } from "@tafsiri/domain";

/** Enumerations of SPEC §9, mirrored by check constraints in the migrations. */
export const ROLES = ["Admin", "Staff"] as const;
export type Role = (typeof ROLES)[number];
// An audio's category: CATEGORIES of @tafsiri/domain, the one list both sides check against.
export type { Category };
export const STAGE_STATUSES = ["In Progress", "Completed"] as const;
export type StageStatus = (typeof STAGE_STATUSES)[number];
export const TRANSCRIPT_STATUSES = ["No transcript", "Pending", "Approved", "Rejected"] as const;
export type TranscriptStatus = (typeof TRANSCRIPT_STATUSES)[number];
export const RECORDING_STATUSES = ["No translation audio", "Pending", "Approved", "Rejected"] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];
export const APPROVAL_STATUSES = ["Pending", "Approved", "Rejected"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
/** Where an audio's or a recording's waveform stands (ARCHITECTURE "Long recordings"): not yet decoded, peaks stored, or undecodable. */
export const WAVEFORM_STATUSES = ["pending", "ready", "failed"] as const;
export type WaveformStatus = (typeof WAVEFORM_STATUSES)[number];
