import { afterAll, describe, expect, it } from "vitest";
import { createAppHarness, failed } from "../fixtures/app-harness";
import { dbState, leaksInternals, ownedWorld, trpcCall } from "../fixtures/hostile-world";

/**
 * Hostile suite, attack: bad ids. Where an id is expected: strings that are not ids (SQL and
 * NoSQL injection attempts among them), unknown ids, huge ids (100 kB in a body or a query; a
 * 4,000-character path segment), and numbers, arrays, objects, null or booleans. Over tRPC and
 * REST each answers 400 'Unknown id.' (or the field's own message), or 404 '<Thing> not found.',
 * never 500, and changes nothing. A path segment past Fastify's `maxParamLength` (5,000
 * characters) answers 414 in the REST error model: before the fix, Fastify's own body
 * `{ error, code: 'FST_ERR_MAX_PARAM_LENGTH', message: <the whole URL> }` echoed the 100 kB back.
 * GET /api/hasrecommendation/{audioId} answered 404 'Audio not found.' to a malformed id before
 * the fix, where its OpenAPI description and every other audio path say 400 'Unknown id.'.
 */

const h = await createAppHarness();
afterAll(() => h.close());
const w = await ownedWorld(h);
const token = w.adminToken;

const UNKNOWN = "0b7e2f4c-5d1a-4c8e-9f3b-2a6d8e1c4b70";
const STRINGS: Array<[string, string]> = [
  ["not an id", "not-an-id"],
  ["SQL injection", "' OR '1'='1' --"],
  ["a uuid with a suffix", `${w.owned.id}' OR 1=1`],
  ["a uuid with spaces", ` ${w.owned.id} `],
  ["a traversal", "../../etc/passwd"],
  ["100 kB", "x".repeat(100_000)],
];
const NON_STRINGS: Array<[string, unknown]> = [
  ["a number", 42],
  ["an array", [w.owned.id]],
  ["an object", { $ne: null }],
  ["null", null],
  ["true", true],
];

/** Procedures taking one id: the field, the answer to a malformed string, to an unknown id, to a non-string. */
interface IdProcedure {
  path: string;
  field: string;
  extra?: Record<string, unknown>;
  malformed: [status: number, message: string];
  unknown: [status: number, message: string];
  nonString: string;
}
const unknownId = "Unknown id.";
const PROCEDURES: IdProcedure[] = [
  {
    path: "audios.get",
    field: "audioId",
    malformed: [400, unknownId],
    unknown: [404, "Audio not found."],
    nonString: unknownId,
  },
  {
    path: "audios.markOpened",
    field: "audioId",
    malformed: [400, unknownId],
    unknown: [404, "Audio not found."],
    nonString: unknownId,
  },
  {
    path: "tasks.get",
    field: "taskId",
    malformed: [404, "Task not found."],
    unknown: [404, "Task not found."],
    nonString: "Invalid input: expected string, received ",
  },
  {
    path: "transcripts.get",
    field: "audioId",
    malformed: [400, unknownId],
    unknown: [404, "Audio not found."],
    nonString: unknownId,
  },
  {
    path: "recordings.get",
    field: "audioId",
    malformed: [400, unknownId],
    unknown: [404, "Audio not found."],
    nonString: unknownId,
  },
  {
    path: "comments.list",
    field: "audioId",
    malformed: [400, unknownId],
    unknown: [404, "Audio not found."],
    nonString: unknownId,
  },
  {
    path: "comments.add",
    field: "audioId",
    extra: { text: "hello" },
    malformed: [400, unknownId],
    unknown: [404, "Audio not found."],
    nonString: unknownId,
  },
  {
    path: "submissions.get",
    field: "submissionId",
    malformed: [400, unknownId],
    unknown: [404, "Submission not found."],
    nonString: unknownId,
  },
  {
    path: "submissions.check",
    field: "taskId",
    malformed: [400, unknownId],
    unknown: [404, "Task not found."],
    nonString: unknownId,
  },
  {
    path: "submissions.ensure",
    field: "taskId",
    malformed: [400, unknownId],
    unknown: [404, "Task not found."],
    nonString: unknownId,
  },
  {
    path: "notifications.markRead",
    field: "id",
    malformed: [400, unknownId],
    unknown: [404, "Notification not found."],
    nonString: unknownId,
  },
  {
    path: "accounts.profile",
    field: "userId",
    malformed: [400, unknownId],
    unknown: [404, "User not found."],
    nonString: unknownId,
  },
  {
    path: "recommendations.check",
    field: "audioId",
    malformed: [400, unknownId],
    unknown: [404, "Audio not found."],
    nonString: unknownId,
  },
  {
    path: "audios.delete",
    field: "audioId",
    malformed: [400, unknownId],
    unknown: [404, "Audio not found."],
    nonString: unknownId,
  },
  {
    path: "accounts.setActive",
    field: "userId",
    extra: { active: false },
    malformed: [400, unknownId],
    unknown: [404, "User not found."],
    nonString: unknownId,
  },
  // SPEC §2.13, decision 035: a whole recording matched to the rows.
  {
    path: "translation.proposeSpans",
    field: "audioId",
    malformed: [400, unknownId],
    unknown: [404, "Audio not found."],
    nonString: unknownId,
  },
  {
    path: "translation.confirmSpans",
    field: "audioId",
    extra: { spans: [{ segmentId: UNKNOWN, startMs: 0, endMs: 500 }] },
    malformed: [400, unknownId],
    unknown: [404, "Audio not found."],
    nonString: unknownId,
  },
];

describe("bad ids over tRPC", () => {
  const cases = PROCEDURES.flatMap((p) => [
    ...STRINGS.map(([what, id]) => [p.path, what, p, id, p.malformed[0], p.malformed[1]] as const),
    [p.path, "an unknown id", p, UNKNOWN, p.unknown[0], p.unknown[1]] as const,
    ...NON_STRINGS.map(([what, id]) => [p.path, what, p, id, 400, p.nonString] as const),
  ]);

  it.each(cases)("%s with %s", async (path, _what, p, id, status, message) => {
    const before = await dbState(h);
    const res = await trpcCall(h, token, path, { ...p.extra, [p.field]: id });
    expect(res.status, res.body.slice(0, 300)).toBe(status);
    expect(res.error?.message.startsWith(message), res.error?.message).toBe(true);
    expect(res.error?.data.httpStatus).toBe(status);
    expect(res.body.length, "the answer does not echo a huge id").toBeLessThan(1_000);
    expect(leaksInternals(res.body)).toBe(false);
    expect(await dbState(h)).toEqual(before);
  });
});

describe("bad ids over REST", () => {
  const PATHS: Array<[method: "GET" | "PUT" | "DELETE", prefix: string, suffix: string, notFound: string]> = [
    ["GET", "/api/audios/", "", "Audio not found."],
    ["PUT", "/api/updateaudios/", `/${w.admin.id}`, "Audio not found."],
    ["DELETE", "/api/audios/delete/", "", "Audio not found."],
    ["GET", "/api/submissions/", "", "Submission not found."],
    ["GET", "/api/checksubmissions/", "", "Task not found."],
    ["PUT", "/api/markNotificationAsRead/", "", "Notification not found."],
    ["GET", "/auth/profile/", "", "User not found."],
  ];
  const SEGMENTS: Array<[string, string, number]> = [
    ["not an id", "not-an-id", 400],
    ["SQL injection", encodeURIComponent("' OR '1'='1' --"), 400],
    ["4,000 characters", "x".repeat(4_000), 400],
    ["an encoded traversal", "..%2f..%2fetc%2fpasswd", 400],
    ["an unknown id", UNKNOWN, 404],
  ];

  it.each(
    PATHS.flatMap(([method, prefix, suffix, notFound]) =>
      SEGMENTS.map(
        ([what, segment, status]) =>
          [
            method,
            `${prefix}{${what}}${suffix}`,
            prefix,
            segment,
            suffix,
            status,
            status === 404 ? notFound : unknownId,
          ] as const,
      ),
    ),
  )("%s %s", async (method, _label, prefix, segment, suffix, status, message) => {
    const before = await dbState(h);
    const res = await h.call(method, `${prefix}${segment}${suffix}`, token);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual(failed(message));
    expect(await dbState(h)).toEqual(before);
  });

  it("GET /api/hasrecommendation/{id} answers 404 'Audio not found.' for an unknown id", async () => {
    const res = await h.call("GET", `/api/hasrecommendation/${UNKNOWN}`, token);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toEqual(failed("Audio not found."));
  });

  it.each([
    ["not an id", "not-an-id"],
    ["SQL injection", encodeURIComponent("' OR '1'='1' --")],
    ["4,000 characters", "x".repeat(4_000)],
  ])("GET /api/hasrecommendation/{%s} answers 400 'Unknown id.' like every other audio path", async (_what, id) => {
    const res = await h.call("GET", `/api/hasrecommendation/${id}`, token);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(failed(unknownId));
  });

  it.each([
    ["GET", "/api/audios/"],
    ["GET", "/api/tasks/"],
    ["GET", "/api/submissions/"],
    ["GET", "/auth/profile/"],
    ["PUT", "/api/markNotificationAsRead/"],
    ["DELETE", "/api/audios/delete/"],
  ] as const)(
    "%s %s{100 kB id} (past maxParamLength) answers 414 in the error model, without echoing the URL",
    async (method, prefix) => {
      const before = await dbState(h);
      const res = await h.app.inject({
        method,
        url: `${prefix}${"x".repeat(100_000)}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(414);
      expect(res.json()).toEqual(failed("The request path is too long."));
      expect(await dbState(h)).toEqual(before);
    },
  );

  it("GET /api/tasks/{id} answers 404 'Task not found.' for a malformed or unknown id", async () => {
    for (const [, segment] of SEGMENTS) {
      const res = await h.call("GET", `/api/tasks/${segment}`, token);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual(failed("Task not found."));
    }
  });

  it.each([...STRINGS.slice(0, 5), ...NON_STRINGS, ["100 kB", "x".repeat(100_000)] as [string, unknown]])(
    "POST /api/createtask with audio_id = %s answers 400 'Unknown id.' and assigns nothing",
    async (_what, id) => {
      const before = await dbState(h);
      const res = await h.call("POST", "/api/createtask", token, { audio_id: id, assigned_to: w.attacker.id });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
      expect(res.json()).toEqual(failed(unknownId));
      expect(await dbState(h)).toEqual(before);
    },
  );

  it.each(NON_STRINGS)("body ids of another type (%s) answer 400 and change nothing", async (_what, id) => {
    const before = await dbState(h);
    const attempts = [
      h.call("POST", "/api/createsubmissions", token, { task_id: id }),
      h.call("POST", "/api/update-status", token, { userId: id, status: "deactivate" }),
      h.call("POST", "/auth/signouteverywhere", token, { userId: id }),
      h.call("PUT", "/api/reassignAudio", token, { audioId: id, newAssignedTo: w.attacker.id }),
      h.call("POST", "/api/fetch-files", token, { fileUrl: id }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ status: "failed", success: false });
    }
    expect(await dbState(h)).toEqual(before);
  });

  it("a 100 kB id in a query string answers 400 'Unknown id.'", async () => {
    const res = await h.call("GET", `/api/tasks?assignedTo=${"x".repeat(100_000)}`, token);
    // The REST list takes no assignedTo: it is ignored, the list answers.
    expect(res.statusCode).toBe(200);
    const trpc = await trpcCall(h, token, "tasks.list", { assignedTo: "x".repeat(100_000) });
    expect(trpc.status).toBe(400);
    expect(trpc.error?.message).toBe(unknownId);
  });
});
