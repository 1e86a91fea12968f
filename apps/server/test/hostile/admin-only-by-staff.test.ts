import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { LightMyRequestResponse } from "fastify";
import { ADMINS_ONLY, attachConsentDocument, exportJobsIdle, openBackupDesk } from "@tafsiri/api";
import { openJobLocks } from "@tafsiri/db/repositories/job-locks";
import { insertWebhookEndpoint } from "@tafsiri/db/repositories/webhooks";
import { TEST_PASSWORD } from "@tafsiri/api/testing/harness";
import { createAppHarness, failed, fixture, uploadAudio } from "../fixtures/app-harness";
import { allProcedures, dbState, ownedWorld, procedureInputs, trpcCall } from "../fixtures/hostile-world";

/**
 * Hostile suite, attack: a staff member calls what only administrators may: registering or
 * promoting accounts (themselves included), deactivating colleagues, assigning, reassigning and
 * deleting audios, approving their own work, the Dashboard's figures, the payment rates and the
 * audit log. Every procedure that is not on the explicit list of what staff may call must answer
 * 403 'Only administrators may do this.' to staff, over tRPC and REST, and change nothing; so a
 * new procedure or path that forgets its guard fails here until it is guarded or listed.
 */

const h = await createAppHarness();
afterAll(() => h.close());
const w = await ownedWorld(h);
const { owned, owner, attacker } = w;
const wav = await fixture("hello.wav");

// The attacker's own audio, with their own Pending transcript and recording (to approve themselves).
await h.caller(attacker).transcripts.save({ audioId: w.attackerAudio.id, text: "my own work" });
const take = await h.upload("AUDIOTRANSLATION", w.attackerToken, [
  ["audioId", w.attackerAudio.id],
  ["recordedBy", attacker.id],
  ["file", { name: "mine.mp3", content: await fixture("hello.mp3") }],
]);
expect(take.statusCode, take.body).toBe(200);
const attackerSubmission = await h.deps.db
  .selectFrom("submissions")
  .select("id")
  .where("taskId", "=", w.attackerAudio.taskId)
  .executeTakeFirstOrThrow();
const unassigned = await uploadAudio(h, w.adminToken, { name: "nobody-yet.wav", content: wav });
// A ready dataset export, for its download link (decision 024).
const readyExport = await h.caller(w.admin).exports.create({ category: "Dementia", chat: { corpus: "hostile" } });
// Decision 027: a backup folder holding one archive, for the Backups page's calls.
const BACKUP_NAME = "tafsiri-backup-2026-12-07T05-10-00.000Z.zip";
const backupDir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-hostile-backups-"));
await fs.writeFile(path.join(backupDir, BACKUP_NAME), "not really a zip");
// Its lock is never asked for here: every call is refused before.
const backupLocks = openJobLocks({ db: h.deps.db });
h.deps.backups = openBackupDesk({ ...h.deps, locks: backupLocks, dir: backupDir, scheduled: false });
afterAll(async () => {
  await backupLocks.close();
  await fs.rm(backupDir, { recursive: true, force: true });
});
await exportJobsIdle();
// Decision 024: a participant with a consent document, for the participants procedures and paths.
const participant = (await h.caller(w.admin).participants.create({ code: "HW0001", group: "Control" })).participant;
const consentTemp = h.deps.storage.tempPath();
await fs.mkdir(path.dirname(consentTemp), { recursive: true });
await fs.writeFile(consentTemp, "%PDF-1.4\n%%EOF\n");
await attachConsentDocument(h.deps, w.admin, {
  participantId: participant.id,
  file: { tempFile: consentTemp, originalName: "consent.pdf" },
});

// Decision 035: a glossary term, for the removal staff must not make.
await h
  .caller(w.admin)
  .translation.addTerm({ pair: { source: "eng", target: "swa" }, sourceTerm: "sink", targetTerm: "sinki" });
const glossaryTermId = (await h.caller(w.admin).translation.glossary({ source: "eng", target: "swa" }))[0]!.id;
// Decision 037: a webhook endpoint (written directly: registering one resolves its host).
const hook = await insertWebhookEndpoint(h.deps.db, {
  url: "https://receiver.example.org/hook",
  description: "",
  eventTypes: ["audio.uploaded"],
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  createdBy: w.admin.id,
});
const MISSING_DELIVERY = "00000000-0000-4000-8000-000000000038";

/** What staff may call (everything else is admin-only). Keep in step with the routers. */
const STAFF_PROCEDURES = new Set([
  "accounts.login",
  "accounts.requestPasswordReset",
  "accounts.resetPassword",
  "accounts.renewSession",
  "accounts.me",
  "accounts.profile",
  "accounts.staff",
  "audios.get",
  "audios.markOpened",
  "tasks.list",
  "tasks.get",
  "transcripts.get",
  "transcripts.save",
  "transcripts.suggestSegments",
  "recordings.get",
  "notifications.list",
  "notifications.markRead",
  "notifications.markAllRead",
  "notifications.create",
  "recommendations.check",
  "recommendations.create",
  "recommendations.list",
  "events.onEvent",
  "comments.list",
  "comments.add",
  "comments.addToSubmission",
  "submissions.list",
  "submissions.get",
  "submissions.check",
  "submissions.ensure",
  "search.audios",
  // Decision 035: the segment grid (its rows are checked per audio in cross-user-access.test.ts).
  "translation.settings",
  "translation.segments",
  "translation.saveDraft",
  "translation.submit",
  "translation.matches",
  "translation.glossary",
  "translation.takes",
  "translation.removeTake",
  "translation.assembleTakes",
  // SPEC §2.13, decision 035: a whole recording matched to the rows (whole-recording-spans.test.ts).
  "translation.proposeSpans",
  "translation.confirmSpans",
  // Decision 036: a person's own API tokens (api-tokens.test.ts, cross-user-access.test.ts).
  "apiTokens.mine",
  "apiTokens.create",
  "apiTokens.revoke",
  // Decision 038: a person's own authenticator app and recovery codes (totp.test.ts).
  "totp.status",
  "totp.start",
  "totp.confirm",
  "totp.disable",
  "totp.regenerateRecoveryCodes",
  // Decision 038: a person's own passkeys, and signing in with one (passkeys.test.ts, cross-user-access.test.ts).
  "passkeys.list",
  "passkeys.registrationOptions",
  "passkeys.register",
  "passkeys.rename",
  "passkeys.remove",
  "passkeys.signInOptions",
  "passkeys.signIn",
  // Decision 038: one's own sessions, sign-out, and proving who one is again (identity-checks.test.ts).
  "sessions.list",
  "sessions.signOut",
  "sessions.passkeyChallenge",
  "sessions.confirmIdentity",
]);

/**
 * A valid input for each admin-only procedure, aimed where it would hurt: the staff member
 * promoting themselves, approving their own work, taking a colleague's audio. A procedure left
 * out here is called with `{}` (and must still refuse staff).
 */
const ADMIN_INPUTS: Record<string, unknown> = {
  "apiTokens.all": { page: 1, limit: 20 },
  // Decision 038: the staff member clearing their colleague's second factor.
  "sessions.resetSecondFactor": { userId: owner.id },
  // Decision 037: webhooks (the delivery need not exist: the role check comes first).
  "webhooks.list": undefined,
  "webhooks.create": { url: "https://receiver.example.org/hook", eventTypes: ["audio.uploaded"] },
  "webhooks.update": { endpointId: hook.id, enabled: false },
  "webhooks.remove": { endpointId: hook.id },
  "webhooks.deliveries": { endpointId: hook.id },
  "webhooks.redeliver": {
    endpointId: hook.id,
    deliveryId: MISSING_DELIVERY,
  },
  "webhooks.sendTest": { endpointId: hook.id },
  "backups.list": {},
  "backups.create": {},
  "backups.download": { name: BACKUP_NAME },
  "backups.delete": { name: BACKUP_NAME },
  "accounts.endSessions": { userId: owner.id },
  "accounts.register": {
    username: "second-admin",
    email: "second-admin@example.test",
    password: "Str0ng-pass!",
    role: "Admin",
    adminPassword: TEST_PASSWORD,
  },
  "accounts.list": {},
  "accounts.edit": {
    userId: attacker.id,
    username: attacker.username,
    email: attacker.email,
    role: "Admin",
    adminPassword: TEST_PASSWORD,
  },
  "accounts.setActive": { userId: owner.id, active: false },
  "audios.list": { category: "Control" },
  "audios.unassigned": { category: "Control" },
  "audios.delete": { audioId: owned.id },
  "tasks.assign": { audioId: unassigned._id, staffId: attacker.id },
  "tasks.bulkAssign": { assignments: [{ audioId: unassigned._id, staffId: attacker.id }] },
  "tasks.reassign": { audioId: owned.id, staffId: attacker.id },
  "tasks.setStatus": { taskId: w.attackerAudio.taskId, translationStatus: "Completed", recordingStatus: "Completed" },
  "transcripts.approve": { audioId: w.attackerAudio.id },
  "transcripts.reject": { audioId: owned.id, reason: "sabotage" },
  "transcripts.remove": { audioId: owned.id },
  "transcripts.history": { audioId: w.attackerAudio.id },
  "recordings.approve": { audioId: w.attackerAudio.id },
  "recordings.reject": { audioId: owned.id, reason: "sabotage" },
  "recordings.remove": { audioId: owned.id },
  "statistics.overview": undefined,
  "statistics.engagement": undefined,
  "statistics.teamReport": {},
  "statistics.reviewers": {},
  "statistics.rates": undefined,
  "statistics.setRates": { transcript: 99_999_999, recording: 99_999_999, audioMinute: 99_999_999 },
  "logs.list": { page: 1 },
  "logs.filters": undefined,
  "exports.list": {},
  "exports.create": { category: "both", status: "approved-transcript" },
  "exports.download": { exportId: readyExport.id },
  "participants.list": {},
  "participants.get": { participantId: participant.id },
  "participants.create": { code: "STAFF1", group: "Control" },
  "participants.update": {
    participantId: participant.id,
    code: "HW0001",
    group: "Dementia",
    consentStatus: "withdrawn",
  },
  "participants.audios": { participantId: participant.id },
  "participants.importCsv": { csv: "code,group\nSTAFF2,Control\n" },
  "participants.exportCsv": undefined,
  "participants.balance": undefined,
  // Decision 035: the speech measures by group.
  "participants.measures": undefined,
  "participants.linkAudio": { audioId: owned.id, participantId: participant.id, sessionDate: null },
  // Decision 025: a bulk approval of a colleague's and one's own submission.
  "reviews.bulk": {
    submissionIds: [owned.submissionId, attackerSubmission.id],
    outputs: ["transcript", "recording"],
    action: "approve",
  },
  // Decision 025: review mode's queue shows every staff member's submissions.
  "submissions.reviewQueue": { filter: "all", move: "first" },
  // Decision 035: the programme's languages, an audio's, the glossary and the memory.
  "translation.setSettings": {
    sourceLanguages: ["lug"],
    targetLanguage: "eng",
    staffWriteSource: false,
    keepChatMarkers: false,
  },
  "translation.setAudioLanguages": { audioId: owned.id, sourceLanguage: "lug", targetLanguage: null },
  "translation.importMemory": { pair: { source: "eng", target: "swa" }, content: "<tmx/>" },
  "translation.exportMemory": { source: "eng", target: "swa" },
  "translation.addTerm": { pair: { source: "eng", target: "swa" }, sourceTerm: "picture", targetTerm: "picha" },
  "translation.removeTerm": { id: glossaryTermId },
  "translation.importGlossary": { pair: { source: "eng", target: "swa" }, content: "source,target\npicture,picha\n" },
  "translation.exportGlossary": { pair: { source: "eng", target: "swa" }, format: "csv" },
  "translation.redoTakes": {
    audioId: owned.id,
    takes: [{ segmentId: "5f0c2b1e-8a4d-4c3b-9e2f-1a2b3c4d5e6f", note: "Record it again." }],
  },
};

const adminOnly = allProcedures().filter((p) => !STAFF_PROCEDURES.has(p.path));

describe("admin-only procedures called by staff over tRPC", () => {
  it("the routers have admin-only procedures, and every one has an input here", () => {
    expect(adminOnly.length).toBeGreaterThan(20);
    expect(adminOnly.map((p) => p.path).filter((path) => !(path in ADMIN_INPUTS))).toEqual([]);
  });

  it.each(adminOnly.map((p) => [p.path, p] as const))("%s answers 403 and changes nothing", async (path) => {
    const input = ADMIN_INPUTS[path] ?? {};
    // The input passes the procedure's own validation, so the refusal is the role check's.
    for (const parser of procedureInputs(path)) expect(() => parser.parse(input)).not.toThrow();
    const before = await dbState(h);
    const res = await trpcCall(h, w.attackerToken, path, input);
    expect(res.status, res.body).toBe(403);
    expect(res.error).toMatchObject({ message: ADMINS_ONLY, data: { code: "FORBIDDEN", httpStatus: 403 } });
    expect(res.data).toBeUndefined();
    expect(await dbState(h)).toEqual(before);
  });

  it("the same admin-only calls inside one batch are each refused", async () => {
    const paths = adminOnly.filter((p) => p.type === "mutation").map((p) => p.path);
    const body = Object.fromEntries(paths.map((path, i) => [String(i), ADMIN_INPUTS[path] ?? {}]));
    const before = await dbState(h);
    const res = await h.app.inject({
      method: "POST",
      url: `/trpc/${paths.join(",")}?batch=1`,
      headers: { authorization: `Bearer ${w.attackerToken}`, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode, res.body).toBe(403);
    const answers = res.json<Array<{ error?: { message: string } }>>();
    expect(answers.map((a) => a.error?.message)).toEqual(paths.map(() => ADMINS_ONLY));
    expect(await dbState(h)).toEqual(before);
  });
});

/** The documented REST operations staff may call ("METHOD /path" as in the OpenAPI document). */
const STAFF_OPERATIONS = new Set([
  "GET /healthz",
  // Resumable uploads (decision 020): staff send recordings and transcripts this way; the admin-only kinds
  // (AUDIO, INITIAL_TRANSCRIPT) answer 403 to staff at creation (resumable-uploads.test.ts).
  "POST /api/uploads",
  "PATCH /api/uploads/{id}",
  "DELETE /api/uploads/{id}",
  "POST /api/uploads/{id}/finish",
  "POST /auth/login",
  "GET /auth/passwordreset/{email}",
  "POST /auth/resetpassword",
  "GET /auth/profile/{id}",
  "GET /auth/staff",
  "POST /auth/renew",
  // Decision 038: one's own sessions, sign-out, and confirming who one is (identity-checks.test.ts).
  "GET /auth/sessions",
  "POST /auth/signout",
  "POST /auth/confirm-identity",
  "POST /api/audios/upload/{kind}", // AUDIOTRANSLATION and TRANSLATED_TRANSCRIPT; the admin kinds are below
  "POST /api/translation/takes/{segmentId}", // decision 035: a staff member's take (segment-takes.test.ts)
  "POST /api/fetch-files",
  "GET /api/tasks",
  "GET /api/tasks/user/{id}",
  "GET /api/tasks/{id}",
  "GET /api/audios/{id}",
  "PUT /api/updateaudios/{audioId}/{userId}",
  "GET /api/fetchnotifications/{userId}",
  "PUT /api/markNotificationAsRead/{id}",
  "PUT /api/markAllNotificationsAsRead",
  "POST /api/createnotification",
  "GET /api/hasrecommendation/{audioId}",
  "PUT /api/recommendaudioforrecording/{audioId}",
  "GET /api/submissions",
  "GET /api/usersubmissions/{userId}",
  "POST /api/createsubmissions",
  "GET /api/submissions/{id}",
  "POST /api/submissions/{id}/comments",
  "GET /api/checksubmissions/{taskId}",
  "GET /api/search",
  "GET /api/recommendedrecordings",
  "GET /api/recommendedrecordings/user/{userId}",
  "GET /files/audios/{file}",
  "GET /files/exports/{file}",
  "GET /files/initial-transcripts/{file}",
  "GET /files/recordings/{audioId}/{file}",
  "GET /files/transcripts/{audioId}/{versionId}/{file}",
  "GET /files/{*}",
  // A signed link (decision 027): who may follow it is checked through its signature.
  "GET /api/backups/{name}/file",
]);

interface RestRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  body?: unknown;
}

/** Valid requests for each admin-only REST operation (several for the four shapes of a review). */
const ADMIN_REQUESTS: Record<string, RestRequest[]> = {
  "POST /auth/register": [
    {
      method: "POST",
      url: "/auth/register",
      body: {
        username: "rest-admin",
        email: "rest-admin@example.test",
        password: "Str0ng-pass!",
        role: "Admin",
        adminpassword: TEST_PASSWORD,
        adminEmail: attacker.email,
      },
    },
  ],
  "GET /auth/users": [{ method: "GET", url: "/auth/users" }],
  // Decision 037: webhooks.
  "GET /api/webhooks": [{ method: "GET", url: "/api/webhooks" }],
  "POST /api/webhooks": [
    {
      method: "POST",
      url: "/api/webhooks",
      body: { url: "https://evil.example.org/", eventTypes: ["audio.uploaded"] },
    },
  ],
  "PUT /api/webhooks/{id}": [{ method: "PUT", url: `/api/webhooks/${hook.id}`, body: { enabled: false } }],
  "DELETE /api/webhooks/{id}": [{ method: "DELETE", url: `/api/webhooks/${hook.id}` }],
  "GET /api/webhooks/{id}/deliveries": [{ method: "GET", url: `/api/webhooks/${hook.id}/deliveries` }],
  "POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver": [
    { method: "POST", url: `/api/webhooks/${hook.id}/deliveries/${MISSING_DELIVERY}/redeliver` },
  ],
  "POST /api/webhooks/{id}/test": [{ method: "POST", url: `/api/webhooks/${hook.id}/test` }],
  "PUT /auth/editprofile": [
    {
      method: "PUT",
      url: "/auth/editprofile",
      body: {
        userId: attacker.id,
        username: attacker.username,
        email: attacker.email,
        role: "Admin",
        adminpassword: TEST_PASSWORD,
      },
    },
  ],
  "POST /api/update-status": [
    { method: "POST", url: "/api/update-status", body: { userId: owner.id, status: "deactivate" } },
  ],
  "POST /auth/signouteverywhere": [{ method: "POST", url: "/auth/signouteverywhere", body: { userId: owner.id } }],
  "POST /auth/reset-second-factor": [{ method: "POST", url: "/auth/reset-second-factor", body: { userId: owner.id } }],
  "PUT /api/tasks/{id}": [
    {
      method: "PUT",
      url: `/api/tasks/${w.attackerAudio.taskId}`,
      body: { translation_status: "Completed", recording_status: "Completed" },
    },
  ],
  "POST /api/createtask": [
    { method: "POST", url: "/api/createtask", body: { audio_id: unassigned._id, assigned_to: attacker.id } },
  ],
  "PUT /api/reassignAudio": [
    { method: "PUT", url: "/api/reassignAudio", body: { audioId: owned.id, newAssignedTo: attacker.id } },
  ],
  "GET /api/audios/control": [{ method: "GET", url: "/api/audios/control" }],
  "GET /api/audios/controlwithouttasks": [{ method: "GET", url: "/api/audios/controlwithouttasks" }],
  "GET /api/audios/dementia": [{ method: "GET", url: "/api/audios/dementia" }],
  "GET /api/audios/dementiawithouttasks": [{ method: "GET", url: "/api/audios/dementiawithouttasks" }],
  "DELETE /api/audios/delete/{id}": [{ method: "DELETE", url: `/api/audios/delete/${owned.id}` }],
  "PUT /api/updatesubmissions/{id}/{userId}": [
    { translation_script_approval_status: "Approved" },
    { recorded_audio_approval_status: "Approved" },
    { translation_script: null },
    { recorded_audio: null },
  ].map((body) => ({
    method: "PUT" as const,
    url: `/api/updatesubmissions/${attackerSubmission.id}/${attacker.id}`,
    body,
  })),
  "POST /api/reviews/bulk": [
    {
      method: "POST",
      url: "/api/reviews/bulk",
      body: { submission_ids: [owned.submissionId, attackerSubmission.id], outputs: ["transcript"], action: "approve" },
    },
  ],
  "GET /api/statistics": [{ method: "GET", url: "/api/statistics" }],
  "GET /api/user-engagement-overview": [{ method: "GET", url: "/api/user-engagement-overview" }],
  "GET /api/team-performance-report": [{ method: "GET", url: "/api/team-performance-report" }],
  "GET /api/statistics/reviewers": [{ method: "GET", url: "/api/statistics/reviewers" }],
  "GET /api/exports": [{ method: "GET", url: "/api/exports" }],
  "POST /api/exports": [
    { method: "POST", url: "/api/exports", body: {} },
    { method: "POST", url: "/api/exports", body: { category: "Control", status: "approved_transcript" } },
  ],
  "GET /api/exports/{id}/download": [{ method: "GET", url: `/api/exports/${readyExport.id}/download` }],
  "GET /api/backups": [{ method: "GET", url: "/api/backups" }],
  "POST /api/backups": [{ method: "POST", url: "/api/backups" }],
  "GET /api/backups/{name}/download": [{ method: "GET", url: `/api/backups/${BACKUP_NAME}/download` }],
  "DELETE /api/backups/{name}": [{ method: "DELETE", url: `/api/backups/${BACKUP_NAME}` }],
  "GET /api/participants": [{ method: "GET", url: "/api/participants" }],
  "GET /api/participants/export": [{ method: "GET", url: "/api/participants/export" }],
  "POST /api/participants/import": [
    { method: "POST", url: "/api/participants/import", body: { csv: "code,group\nSTAFF3,Control\n" } },
  ],
  "GET /api/participants/{id}": [{ method: "GET", url: `/api/participants/${participant.id}` }],
  "POST /api/participants": [{ method: "POST", url: "/api/participants", body: { code: "STAFF4", group: "Control" } }],
  "PUT /api/participants/{id}": [
    {
      method: "PUT",
      url: `/api/participants/${participant.id}`,
      body: { code: "HW0001", group: "Control", consent_status: "withdrawn" },
    },
  ],
  "POST /api/participants/{id}/consent-document": [
    { method: "POST", url: `/api/participants/${participant.id}/consent-document` },
  ],
  "GET /api/participants/{id}/consent-document": [
    { method: "GET", url: `/api/participants/${participant.id}/consent-document` },
  ],
  "DELETE /api/participants/{id}/consent-document": [
    { method: "DELETE", url: `/api/participants/${participant.id}/consent-document` },
  ],
  "POST /api/audios/{id}/participant": [
    {
      method: "POST",
      url: `/api/audios/${owned.id}/participant`,
      body: { participant_id: participant.id, session_date: null },
    },
  ],
};

const doc = (await h.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
  paths: Record<string, Record<string, unknown>>;
}>();
const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
);
const adminOperations = documented.filter((op) => !STAFF_OPERATIONS.has(op));

const send = (req: RestRequest, token: string | null): Promise<LightMyRequestResponse> =>
  h.call(req.method, req.url, token, req.body);

describe("admin-only REST paths called by staff", () => {
  it("the OpenAPI document has admin-only operations, and every one has a request here", () => {
    expect(adminOperations.length).toBeGreaterThan(15);
    expect(adminOperations.filter((op) => !(op in ADMIN_REQUESTS))).toEqual([]);
  });

  it.each(adminOperations.map((op) => [op] as const))("%s answers 403 and changes nothing", async (op) => {
    for (const req of ADMIN_REQUESTS[op] ?? []) {
      // Without a token the request gets past validation to the sign-in check (so it is well formed).
      const anonymous = await send(req, null);
      expect(anonymous.statusCode, anonymous.body).toBe(401);

      const before = await dbState(h);
      const res = await send(req, w.attackerToken);
      expect(res.statusCode, `${op} ${JSON.stringify(req.body ?? "")}: ${res.body}`).toBe(403);
      expect(res.json()).toEqual(failed(ADMINS_ONLY));
      expect(await dbState(h)).toEqual(before);
    }
  });

  it.each([["AUDIO"], ["INITIAL_TRANSCRIPT"]])(
    "POST /api/audios/upload/%s answers 403 and stores nothing",
    async (kind) => {
      const before = await dbState(h);
      const res = await h.upload(kind, w.attackerToken, [
        ["category", "Control"],
        ["audioId", owned.id],
        ["file", kind === "AUDIO" ? { name: "sneaky.wav", content: wav } : { name: "t.txt", content: "replaced" }],
      ]);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual(failed(ADMINS_ONLY));
      expect(await dbState(h)).toEqual(before);
    },
  );
});

describe("(the control: an admin's token is accepted on the same calls)", () => {
  it("reads answer 200 for the admin", async () => {
    for (const { path, type } of adminOnly.filter((p) => p.type === "query")) {
      const res = await trpcCall(h, w.adminToken, path, ADMIN_INPUTS[path]);
      expect(res.status, `${path} (${type}): ${res.body}`).toBe(200);
    }
    for (const op of adminOperations.filter((o) => o.startsWith("GET "))) {
      for (const req of ADMIN_REQUESTS[op] ?? []) expect((await send(req, w.adminToken)).statusCode).toBe(200);
    }
  });
});
