/**
 * Where each notification leads (SPEC §4), named like the web app's routes: every value is a
 * route of apps/web/src/config/paths.ts under the same name (packages/api/test/notification-links
 * compares the two), so a renamed screen cannot leave the bell pointing nowhere.
 */
export const NOTIFICATION_LINKS = {
  /** Transcript saved, approved, rejected or deleted: the Translated Transcript screen. */
  transcript: "/audiomanagement/trascript",
  /** Recording uploaded, approved, rejected or deleted: the Translated Audio screen. */
  translatedAudio: "/audiomanagement/translatedaudio",
  /** A recommendation: the Recommended Recordings page, spelled with the trailing slash of SPEC §4. */
  recordings: "/Recordings/",
  /** A comment on a submission: the Give Feedback screen. */
  feedback: "/audiomanagement/feedback",
  /** A task reassigned away from its previous assignee (decision 025): their Tasks page. */
  tasks: "/Audios",
} as const;
