import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LightMyRequestResponse } from "fastify";
import { appWithUsers, assignOverRest, fixture, uploadAudio, type AppWithUsers } from "./fixtures/app-harness";

/**
 * One error model (AppError mapped by describeError): the same bad input gets the same HTTP
 * status and the same message over REST and over tRPC.
 */

let u: AppWithUsers;
let audioA: string;
let taskA: string;
beforeAll(async () => {
  u = await appWithUsers();
  audioA = (
    await uploadAudio(u.h, u.adminToken, {
      name: "parity-a.wav",
      content: await fixture("hello.wav"),
      type: "audio/wav",
    })
  )._id;
  taskA = await assignOverRest(u.h, u.adminToken, audioA, u.staffA);
});
afterAll(() => u.h.close());

/** A tRPC call over HTTP as the web app makes it: queries by GET with `?input=`, mutations by POST. */
async function trpc(
  kind: "query" | "mutation",
  path: string,
  input: unknown,
  token: string | null,
): Promise<LightMyRequestResponse> {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  if (kind === "query") {
    return u.h.app.inject({
      method: "GET",
      url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
      headers,
    });
  }
  return u.h.app.inject({ method: "POST", url: `/trpc/${path}`, headers, payload: input as object });
}

/** Status and message of a REST failure and of a tRPC failure. */
const restAnswer = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  message: res.json<{ message: string }>().message,
});
const trpcAnswer = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  message: res.json<{ error: { message: string } }>().error.message,
});

interface Case {
  name: string;
  rest: () => Promise<LightMyRequestResponse>;
  trpc: () => Promise<LightMyRequestResponse>;
  expected: { status: number; message: string };
}

const cases: Case[] = [
  {
    name: "empty login",
    rest: () => u.h.call("POST", "/auth/login", null, { email: "", password: "" }),
    trpc: () => trpc("mutation", "accounts.login", { email: "", password: "" }, null),
    expected: { status: 400, message: "Email is required" },
  },
  {
    name: "login without a password field",
    rest: () => u.h.call("POST", "/auth/login", null, { email: "someone@example.org" }),
    trpc: () => trpc("mutation", "accounts.login", { email: "someone@example.org" }, null),
    expected: { status: 400, message: "Password is required" },
  },
  {
    name: "unknown audio id",
    rest: () => u.h.call("GET", `/api/audios/${randomUUID()}`, u.adminToken),
    trpc: () => trpc("query", "audios.get", { audioId: randomUUID() }, u.adminToken),
    expected: { status: 404, message: "Audio not found." },
  },
  {
    name: "malformed audio id",
    rest: () => u.h.call("GET", "/api/audios/not-an-id", u.adminToken),
    trpc: () => trpc("query", "audios.get", { audioId: "not-an-id" }, u.adminToken),
    expected: { status: 400, message: "Unknown id." },
  },
  {
    name: "another staff member's task",
    rest: () => u.h.call("GET", `/api/tasks/${taskA}`, u.tokenB),
    trpc: () => trpc("query", "tasks.get", { taskId: taskA }, u.tokenB),
    expected: { status: 403, message: "You do not have access to this audio." },
  },
  {
    name: "another staff member's task list",
    rest: () => u.h.call("GET", `/api/tasks/user/${u.staffA.id}`, u.tokenB),
    trpc: () => trpc("query", "tasks.list", { assignedTo: u.staffA.id }, u.tokenB),
    expected: { status: 403, message: "You may only list your own tasks." },
  },
  {
    name: "staff token on an admin path",
    rest: () => u.h.call("POST", "/api/createtask", u.tokenA, { audio_id: audioA, assigned_to: u.staffB.id }),
    trpc: () => trpc("mutation", "tasks.assign", { audioId: audioA, staffId: u.staffB.id }, u.tokenA),
    expected: { status: 403, message: "Only administrators may do this." },
  },
  {
    name: "no token",
    rest: () => u.h.call("GET", "/api/tasks", null),
    trpc: () => trpc("query", "tasks.list", {}, null),
    expected: { status: 401, message: "You must be signed in." },
  },
  {
    name: "missing staff member on assign",
    rest: () => u.h.call("POST", "/api/createtask", u.adminToken, { audio_id: audioA }),
    trpc: () => trpc("mutation", "tasks.assign", { audioId: audioA }, u.adminToken),
    expected: { status: 400, message: "Please select a staff member." },
  },
  {
    name: "a second assignment",
    rest: () => u.h.call("POST", "/api/createtask", u.adminToken, { audio_id: audioA, assigned_to: u.staffB.id }),
    trpc: () => trpc("mutation", "tasks.assign", { audioId: audioA, staffId: u.staffB.id }, u.adminToken),
    expected: { status: 409, message: "This audio is already assigned." },
  },
];

describe("the same bad input over REST and over tRPC", () => {
  for (const c of cases) {
    it(`${c.name}: same status and message`, async () => {
      const rest = restAnswer(await c.rest());
      const viaTrpc = trpcAnswer(await c.trpc());
      expect(rest).toEqual(viaTrpc);
      expect(rest).toEqual(c.expected);
    });
  }
});
