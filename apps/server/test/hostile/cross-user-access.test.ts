import { afterAll, describe, expect, it } from "vitest";
import type { LightMyRequestResponse } from "fastify";
import { ADMINS_ONLY } from "@tafsiri/api";
import { createAppHarness, failed, fixture, type FormParts } from "../fixtures/app-harness";
import { allProcedures, dbState, ownedWorld, trpcCall } from "../fixtures/hostile-world";
import { insertPasskey } from "@tafsiri/db/repositories/passkeys";

/**
 * Hostile suite, attack: another staff member's ids. A signed-in staff member (the attacker)
 * takes the ids of everything a colleague (the owner) holds (their audio, task, submission,
 * transcript, recording, comments, notifications, profile, recommendations and stored files) and
 * reads and writes them over tRPC and over REST. Every attempt answers 403 (404 for a
 * notification, which is personal), says nothing of the object, and changes nothing.
 */

const h = await createAppHarness();
afterAll(() => h.close());
const w = await ownedWorld(h);
const { owned, recommended, owner, attacker, other, admin } = w;

const NO_ACCESS = "You do not have access to this audio.";
const OWN_TASKS = "You may only list your own tasks.";
const OWN_SUBMISSIONS = "You may only list your own submissions.";
const OWN_RECOMMENDATIONS = "You may only list your own recommendations.";
const OWN_NOTIFICATIONS = "You may only read your own notifications.";
const SEND_AS_YOURSELF = "You may only send notifications as yourself.";
const OWN_PROFILE = "You may only view your own profile.";
const NOTIFICATION_NOT_FOUND = "Notification not found.";

/** What the attacker must never read in an answer: the owner's texts, e-mail and storage keys. */
const leaks = [...w.secrets, owned.fileKey, owned.initialTranscriptKey, owned.transcriptKey, owned.recordingKey];

function expectNoLeak(body: string) {
  for (const secret of leaks) expect(body, `the answer leaks "${secret}"`).not.toContain(secret);
}

/** A tRPC attempt: procedure, input, the refusal, and whether the owner's own call is a control. */
interface TrpcAttempt {
  path: string;
  input: unknown;
  status: 403 | 404;
  message: string;
  /** The same call succeeds for the owner (shows the ids are real); false where it would grant the attacker access. */
  ownerControl?: boolean;
}

const comment = "written by someone else";
// Decision 035: the owner's grid rows saved, so a take can be named by its row.
const ownedRows = (await h.caller(owner).translation.segments({ audioId: owned.id })).segments;
await h.caller(owner).translation.saveDraft({ audioId: owned.id, segments: ownedRows });
// Decision 036: the owner's API token, which the attacker must not revoke.
const ownerApiToken = await h.caller(owner).apiTokens.create({
  name: "owner's pipeline",
  scope: "read",
  expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
});
// Decision 038: the owner's passkey, which the attacker must not rename nor remove.
const ownerPasskeyId = await insertPasskey(h.deps.db, {
  userId: owner.id,
  credentialId: "owners-passkey",
  publicKey: new Uint8Array([1, 2, 3]),
  deviceType: "multiDevice",
  name: "owner's phone",
});
const PASSKEY_NOT_FOUND = "Passkey not found.";
const TRPC_ATTEMPTS: TrpcAttempt[] = [
  {
    path: "passkeys.rename",
    input: { passkeyId: ownerPasskeyId, name: "taken over" },
    status: 404,
    message: PASSKEY_NOT_FOUND,
  },
  // After the rename's control, so the owner's own removal finds it.
  { path: "passkeys.remove", input: { passkeyId: ownerPasskeyId }, status: 404, message: PASSKEY_NOT_FOUND },
  {
    path: "apiTokens.revoke",
    input: { tokenId: ownerApiToken.view.id },
    status: 403,
    message: "You can revoke only your own tokens.",
  },
  { path: "audios.get", input: { audioId: owned.id }, status: 403, message: NO_ACCESS },
  { path: "audios.get", input: { audioId: recommended.id }, status: 403, message: NO_ACCESS },
  { path: "audios.markOpened", input: { audioId: owned.id }, status: 403, message: NO_ACCESS },
  { path: "tasks.get", input: { taskId: owned.taskId }, status: 403, message: NO_ACCESS },
  { path: "tasks.get", input: { taskId: recommended.taskId }, status: 403, message: NO_ACCESS },
  { path: "tasks.list", input: { assignedTo: owner.id }, status: 403, message: OWN_TASKS },
  { path: "transcripts.get", input: { audioId: owned.id }, status: 403, message: NO_ACCESS },
  { path: "transcripts.save", input: { audioId: owned.id, text: "overwritten" }, status: 403, message: NO_ACCESS },
  // Decision 035: the segment grid, its draft and Submit, and memory lookups of another's audio; the
  // controls of the draft and Submit (the assignee saves) are in packages/api/test/translation.test.ts.
  { path: "translation.segments", input: { audioId: owned.id }, status: 403, message: NO_ACCESS },
  {
    path: "translation.saveDraft",
    input: { audioId: owned.id, segments: [] },
    status: 403,
    message: NO_ACCESS,
    ownerControl: false,
  },
  {
    path: "translation.submit",
    input: {
      audioId: owned.id,
      segments: [
        {
          id: "5f0c2b1e-8a4d-4c3b-9e2f-1a2b3c4d5e6f",
          speaker: "PAR",
          startMs: null,
          endMs: null,
          source: "",
          target: "overwritten",
          state: "translated",
        },
      ],
    },
    status: 403,
    message: NO_ACCESS,
    ownerControl: false,
  },
  { path: "translation.matches", input: { audioId: owned.id, source: "hello" }, status: 403, message: NO_ACCESS },
  // Decision 035, oral translation: another's takes, their removal and the recording made from them.
  { path: "translation.takes", input: { audioId: owned.id }, status: 403, message: NO_ACCESS },
  { path: "translation.removeTake", input: { segmentId: ownedRows[0]!.id }, status: 403, message: NO_ACCESS },
  {
    path: "translation.assembleTakes",
    input: { audioId: owned.id },
    status: 403,
    message: NO_ACCESS,
    ownerControl: false,
  },
  // SPEC §2.13, decision 035: a whole recording matched to the rows; the controls (the assignee
  // proposes and confirms) are in whole-recording-spans.test.ts.
  {
    path: "translation.proposeSpans",
    input: { audioId: owned.id },
    status: 403,
    message: NO_ACCESS,
    ownerControl: false,
  },
  {
    path: "translation.confirmSpans",
    input: { audioId: owned.id, spans: [{ segmentId: ownedRows[0]!.id, startMs: 0, endMs: 500 }] },
    status: 403,
    message: NO_ACCESS,
    ownerControl: false,
  },
  // Decision 024; its control (the assignee gets segments) is in packages/api/test/suggest-segments.test.ts.
  {
    path: "transcripts.suggestSegments",
    input: { audioId: owned.id },
    status: 403,
    message: NO_ACCESS,
    ownerControl: false,
  },
  { path: "recordings.get", input: { audioId: owned.id }, status: 403, message: NO_ACCESS },
  { path: "comments.list", input: { audioId: owned.id }, status: 403, message: NO_ACCESS },
  { path: "comments.add", input: { audioId: owned.id, text: comment }, status: 403, message: NO_ACCESS },
  {
    path: "comments.addToSubmission",
    input: { submissionId: owned.submissionId, text: comment },
    status: 403,
    message: NO_ACCESS,
  },
  { path: "submissions.get", input: { submissionId: owned.submissionId }, status: 403, message: NO_ACCESS },
  { path: "submissions.get", input: { submissionId: recommended.submissionId }, status: 403, message: NO_ACCESS },
  { path: "submissions.check", input: { taskId: owned.taskId }, status: 403, message: NO_ACCESS },
  { path: "submissions.ensure", input: { taskId: owned.taskId, comment }, status: 403, message: NO_ACCESS },
  { path: "submissions.list", input: { userId: owner.id }, status: 403, message: OWN_SUBMISSIONS },
  { path: "recommendations.check", input: { audioId: owned.id }, status: 403, message: NO_ACCESS },
  {
    path: "recommendations.create",
    input: { audioId: owned.id, staffId: attacker.id },
    status: 403,
    message: NO_ACCESS,
    ownerControl: false,
  },
  {
    path: "recommendations.create",
    input: { audioId: owned.id, staffId: other.id },
    status: 403,
    message: NO_ACCESS,
    // The REST control recommends this audio to `other`; a second recommendation would be a 409.
    ownerControl: false,
  },
  { path: "recommendations.list", input: { recommendedTo: owner.id }, status: 403, message: OWN_RECOMMENDATIONS },
  { path: "notifications.list", input: { userId: owner.id }, status: 403, message: OWN_NOTIFICATIONS },
  {
    path: "notifications.markRead",
    input: { id: w.ownerNotificationId },
    status: 404,
    message: NOTIFICATION_NOT_FOUND,
  },
  {
    path: "notifications.create",
    input: { senderId: owner.id, message: "sent in your name", link: "/Audios", recipientId: admin.id },
    status: 403,
    message: SEND_AS_YOURSELF,
  },
  {
    path: "notifications.create",
    input: { senderId: attacker.id, message: "about your audio", link: "/Audios", audioId: owned.id, toAdmins: true },
    status: 403,
    message: NO_ACCESS,
    ownerControl: false,
  },
  { path: "accounts.profile", input: { userId: owner.id }, status: 403, message: OWN_PROFILE },
];

/**
 * Procedures that name no object of another user, so they are not attempts here: public ones,
 * the caller's own session and lists (checked below: they show nothing of the owner), and the
 * live stream (the caller's own events; refusals are in websocket-auth.test.ts).
 */
const NOT_OWNER_SCOPED: Record<string, string> = {
  "accounts.login": "public",
  "accounts.requestPasswordReset": "public",
  "accounts.resetPassword": "public",
  "accounts.renewSession": "the caller's own session",
  "accounts.me": "the caller's own account",
  "accounts.staff": "the staff dropdown (ids and usernames of active staff), open to every user by design",
  "search.audios": "no id; shows nothing of the owner (checked below)",
  "notifications.markAllRead": "no id; the caller's own notifications only (notifications-hostile.test.ts)",
  "events.onEvent": "the caller's own events over the WebSocket",
  "translation.settings": "the programme's languages, the same for every user (decision 035)",
  "translation.glossary": "a language pair's glossary, the same for every user (decision 035)",
  "apiTokens.mine": "the caller's own tokens (decision 036)",
  "apiTokens.create": "a token for the caller alone (decision 036)",
  "totp.status": "no id; the caller's own second factor (decision 038)",
  "totp.start": "no id; the caller's own second factor (decision 038; totp.test.ts sends another's userId)",
  "totp.confirm": "no id; the caller's own second factor (decision 038; a userId is refused)",
  "totp.disable": "no id; the caller's own second factor (decision 038; a userId is refused)",
  "totp.regenerateRecoveryCodes": "no id; the caller's own recovery codes (decision 038)",
  "passkeys.list": "the caller's own passkeys (decision 038)",
  "passkeys.registrationOptions": "a registration for the caller alone (decision 038)",
  "passkeys.register": "a passkey for the caller alone; another's challenge is refused (passkeys.test.ts)",
  "passkeys.signInOptions": "public",
  "passkeys.signIn": "public",
  "sessions.list": "no id; the caller's own sessions (decision 038; identity-checks.test.ts)",
  "sessions.signOut": "no id; the caller's own session (decision 038)",
  "sessions.passkeyChallenge": "no id; a challenge for the caller's own passkeys (decision 038)",
  "sessions.confirmIdentity": "no id; the caller's own proof (decision 038; identity-checks.test.ts)",
};

/** A REST attempt: method, path, body (or an upload), the refusal, and the owner's control. */
interface RestAttempt {
  method: "GET" | "POST" | "PUT";
  url: string;
  body?: unknown;
  upload?: { kind: string; parts: FormParts };
  status: 403 | 404;
  message: string;
  ownerControl?: boolean;
}

const wav = await fixture("hello.wav");
const REST_ATTEMPTS: RestAttempt[] = [
  { method: "GET", url: `/api/audios/${owned.id}`, status: 403, message: NO_ACCESS },
  { method: "GET", url: `/api/audios/${recommended.id}`, status: 403, message: NO_ACCESS },
  { method: "PUT", url: `/api/updateaudios/${owned.id}/${attacker.id}`, status: 403, message: NO_ACCESS },
  { method: "GET", url: `/api/tasks/${owned.taskId}`, status: 403, message: NO_ACCESS },
  { method: "GET", url: `/api/tasks/user/${owner.id}`, status: 403, message: OWN_TASKS },
  { method: "GET", url: `/api/submissions/${owned.submissionId}`, status: 403, message: NO_ACCESS },
  {
    method: "POST",
    url: `/api/submissions/${owned.submissionId}/comments`,
    body: { comments: { text: comment, postedBy: owner.id } },
    status: 403,
    message: NO_ACCESS,
  },
  { method: "GET", url: `/api/checksubmissions/${owned.taskId}`, status: 403, message: NO_ACCESS },
  {
    method: "POST",
    url: "/api/createsubmissions",
    body: { task_id: owned.taskId, by: owner.id, comments: comment },
    status: 403,
    message: NO_ACCESS,
  },
  { method: "GET", url: `/api/usersubmissions/${owner.id}`, status: 403, message: OWN_SUBMISSIONS },
  { method: "GET", url: `/api/hasrecommendation/${owned.id}`, status: 403, message: NO_ACCESS },
  {
    method: "PUT",
    url: `/api/recommendaudioforrecording/${owned.id}`,
    body: { recommended_to: other.id },
    status: 403,
    message: NO_ACCESS,
  },
  { method: "GET", url: `/api/recommendedrecordings/user/${owner.id}`, status: 403, message: OWN_RECOMMENDATIONS },
  { method: "GET", url: `/api/fetchnotifications/${owner.id}`, status: 403, message: OWN_NOTIFICATIONS },
  {
    method: "PUT",
    url: `/api/markNotificationAsRead/${w.ownerNotificationId}`,
    status: 404,
    message: NOTIFICATION_NOT_FOUND,
  },
  {
    method: "POST",
    url: "/api/createnotification",
    body: { senderId: owner.id, message: "sent in your name", link: "/Audios", recipientId: admin.id },
    status: 403,
    message: SEND_AS_YOURSELF,
  },
  { method: "GET", url: `/auth/profile/${owner.id}`, status: 403, message: OWN_PROFILE },
  ...[owned.fileKey, owned.initialTranscriptKey, owned.transcriptKey, owned.recordingKey].map(
    (fileUrl): RestAttempt => ({
      method: "POST",
      url: "/api/fetch-files",
      body: { fileUrl, folder: "audios" },
      status: 403,
      message: NO_ACCESS,
    }),
  ),
  {
    method: "POST",
    url: "/api/audios/upload/AUDIOTRANSLATION",
    upload: {
      kind: "AUDIOTRANSLATION",
      parts: [
        ["audioId", owned.id],
        ["recordedBy", owner.id],
        ["file", { name: "replacement.wav", content: wav }],
      ],
    },
    status: 403,
    message: NO_ACCESS,
  },
  {
    method: "POST",
    url: "/api/audios/upload/TRANSLATED_TRANSCRIPT",
    upload: {
      kind: "TRANSLATED_TRANSCRIPT",
      parts: [
        ["audioId", owned.id],
        ["file", { name: "replacement.cha", content: "*PAR: replaced\n" }],
      ],
    },
    status: 403,
    message: NO_ACCESS,
  },
];

function rest(attempt: RestAttempt, token: string): Promise<LightMyRequestResponse> {
  if (attempt.upload) return h.upload(attempt.upload.kind, token, attempt.upload.parts);
  return h.call(attempt.method, attempt.url, token, attempt.body);
}

const label = (a: { input?: unknown; body?: unknown }) => JSON.stringify(a.input ?? a.body ?? "").slice(0, 80);

describe("another staff member's ids over tRPC", () => {
  it.each(TRPC_ATTEMPTS.map((a) => [a.path, label(a), a] as const))(
    "%s %s is refused and changes nothing",
    async (_path, _label, attempt) => {
      const before = await dbState(h);
      const res = await trpcCall(h, w.attackerToken, attempt.path, attempt.input);
      expect(res.status, res.body).toBe(attempt.status);
      expect(res.error?.message).toBe(attempt.message);
      expect(res.error?.data.httpStatus).toBe(attempt.status);
      expect(res.data).toBeUndefined();
      expectNoLeak(res.body);
      expect(await dbState(h)).toEqual(before);
    },
  );
});

describe("another staff member's ids over REST", () => {
  it.each(REST_ATTEMPTS.map((a) => [a.method, a.url, label(a), a] as const))(
    "%s %s %s is refused and changes nothing",
    async (_method, _url, _label, attempt) => {
      const before = await dbState(h);
      const res = await rest(attempt, w.attackerToken);
      expect(res.statusCode, res.body).toBe(attempt.status);
      expect(res.json()).toEqual(failed(attempt.message));
      expectNoLeak(res.body);
      expect(await dbState(h)).toEqual(before);
    },
  );

  it("a signed link the owner was given is no key for the attacker to ask for another", async () => {
    const link = await h.call("POST", "/api/fetch-files", w.ownerToken, { fileUrl: owned.transcriptKey });
    expect(link.statusCode, link.body).toBe(200);
    const before = await dbState(h);
    const res = await h.call("POST", "/api/fetch-files", w.attackerToken, {
      fileUrl: link.json<{ url: string }>().url,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(failed(NO_ACCESS));
    expect(await dbState(h)).toEqual(before);
  });
});

describe("the attacker's own lists show nothing of the owner", () => {
  const owners = [owned.id, recommended.id, owned.taskId, owned.submissionId, w.ownerNotificationId];
  const expectNothingOfTheOwner = (body: string) => {
    expectNoLeak(body);
    for (const id of owners) expect(body).not.toContain(id);
  };

  it("over tRPC: tasks, submissions, recommendations, notifications and search", async () => {
    const calls: Array<[string, unknown]> = [
      ["tasks.list", {}],
      ["submissions.list", {}],
      ["recommendations.list", {}],
      ["notifications.list", {}],
      ["search.audios", { q: owned.filename }],
      ["search.audios", { q: recommended.filename }],
      ["search.audios", { q: "o" }],
    ];
    for (const [path, input] of calls) {
      const res = await trpcCall(h, w.attackerToken, path, input);
      expect(res.status, `${path}: ${res.body}`).toBe(200);
      expectNothingOfTheOwner(res.body);
    }
    // The attacker's own task is listed, so the lists do answer.
    const tasks = await trpcCall(h, w.attackerToken, "tasks.list", {});
    expect(tasks.body).toContain(w.attackerAudio.taskId);
  });

  it("over REST: the same lists", async () => {
    const urls = [
      "/api/tasks",
      `/api/tasks/user/${attacker.id}`,
      "/api/submissions",
      `/api/usersubmissions/${attacker.id}`,
      "/api/recommendedrecordings",
      `/api/recommendedrecordings/user/${attacker.id}`,
      `/api/fetchnotifications/${attacker.id}`,
      `/api/search?q=${encodeURIComponent(owned.filename)}`,
      `/api/search?q=${encodeURIComponent(recommended.filename)}`,
    ];
    for (const url of urls) {
      const res = await h.call("GET", url, w.attackerToken);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expectNothingOfTheOwner(res.body);
    }
  });
});

describe("every procedure is covered", () => {
  it("each procedure is an attempt above, admin-only (refuses staff), or names no object of another user", async () => {
    const attempted = new Set(TRPC_ATTEMPTS.map((a) => a.path));
    const unclassified: string[] = [];
    for (const { path, type } of allProcedures()) {
      if (attempted.has(path) || path in NOT_OWNER_SCOPED) continue;
      if (type !== "subscription") {
        const res = await trpcCall(h, w.attackerToken, path, {});
        if (res.status === 403 && res.error?.message === ADMINS_ONLY) continue;
      }
      unclassified.push(path);
    }
    expect(unclassified, "procedures to add to TRPC_ATTEMPTS or NOT_OWNER_SCOPED").toEqual([]);
  });
});

// Last: the owner's own calls change state (and one would let the attacker in), so they run after the attempts.
describe("(the controls: the same calls succeed for the owner)", () => {
  it("over tRPC", async () => {
    for (const attempt of TRPC_ATTEMPTS.filter((a) => a.ownerControl !== false)) {
      const input =
        attempt.path === "notifications.create" ? { ...(attempt.input as object), senderId: owner.id } : attempt.input;
      const res = await trpcCall(h, w.ownerToken, attempt.path, input);
      expect(res.status, `${attempt.path}: ${res.body}`).toBe(200);
    }
  });

  it("over REST", async () => {
    for (const attempt of REST_ATTEMPTS.filter((a) => a.ownerControl !== false)) {
      const res = await rest(attempt, w.ownerToken);
      expect(res.statusCode, `${attempt.method} ${attempt.url}: ${res.body}`).toBe(200);
    }
  });
});
