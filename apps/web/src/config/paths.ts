/**
 * The web app's routes (SPEC §2.1), written once: the router, the sidebar, the menus, links and
 * navigate() calls all read them from here. Paths match case-insensitively, but these are the
 * spellings the app links to (and the server's notification links must use: a server test
 * imports this file by relative path and compares its own link table with these values).
 *
 * Plain data on purpose: this module imports nothing, so code outside the web app can load it.
 */
export const paths = {
  /** Admin: quick statistics (dashboard). Staff are redirected to `tasks`. */
  home: "/",
  /** Tasks list. */
  tasks: "/Audios",
  /** Recommended recordings grid. */
  recordings: "/Recordings",
  /** Submissions list. */
  submissions: "/submission/general",
  /** Review mode (Admin): one submission of the Submissions filter at a time (decision 025). */
  review: "/submission/review",
  /** Accounts (Admin). */
  accounts: "/accounts/users",
  /** Audio view of the current audio. */
  audio: "/audiomanagement/audiocontrol",
  /** Translated Transcript of the current audio (spelling as given in the spec). */
  transcript: "/audiomanagement/trascript",
  /** Translated Audio of the current audio. */
  translatedAudio: "/audiomanagement/translatedaudio",
  /** Give Feedback on the current audio. */
  feedback: "/audiomanagement/feedback",
  /** Recommend the current audio. */
  recommend: "/audiomanagement/recommend",
  /** Upload audios (Admin). */
  upload: "/management/upload",
  /** Assign tasks (Admin). */
  createTasks: "/management/createtasks",
  /** Manage audios (Admin). */
  manageAudios: "/management/manageaudios",
  /** Dataset export (Admin; decision 019). */
  exports: "/management/export",
  /** Backups of the database and files (Admin; decision 027). */
  backups: "/management/backups",
  /** Research participants (Admin; decision 024). */
  participants: "/management/participants",
  /** One participant's page (Admin; decision 024); fill `:participantId` with react-router's generatePath. */
  participant: "/management/participants/:participantId",
  /** Translation languages and rules, glossary and translation memory (Admin; decision 035). */
  translationAdmin: "/management/translation",
  /** Webhook endpoints and their delivery logs (Admin; decision 037); the server's 'endpoint disabled' notification links here. */
  webhooks: "/management/webhooks",
  /** The signed-in person's API tokens, and for admins everyone's (decision 036). */
  apiTokens: "/settings/tokens",
  /** The signed-in person's own account and how they sign in: two-factor authentication (decision 038). */
  profile: "/settings/profile",
  /** Where an admin who must add a second factor is held until they do (decision 038). */
  enrolSecondFactor: "/settings/security-required",
  /** Logs (Admin). */
  logs: "/log/log-listing",
  /** Sign in (open). */
  signIn: "/signin",
  /** Password reset request (open). */
  resetPassword: "/reset-password",
  /** Not-found page (open); any other path shows it too. */
  notFound: "/utility/404",
} as const;
