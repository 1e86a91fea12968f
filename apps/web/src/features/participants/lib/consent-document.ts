import { downloadBlob } from "#web/lib/csv";
import { CONNECTION_ERROR } from "#web/lib/rest";
import { readSession } from "#web/lib/session";

/**
 * A participant's consent document (decision 024): one PDF kept with the participant, through
 * `/api/participants/{id}/consent-document` (POST multipart to upload or replace, GET to download,
 * DELETE to remove; admins only, the server checks). Each function throws an Error with the
 * server's message (or the connection message) when the request fails.
 */

function pathOf(participantId: string): string {
  return `/api/participants/${encodeURIComponent(participantId)}/consent-document`;
}

/** Sends a request with the session's token; throws with the server's message when it does not answer 2xx. */
async function send(participantId: string, init: RequestInit): Promise<Response> {
  const token = readSession()?.token;
  let res: Response;
  try {
    res = await fetch(pathOf(participantId), {
      ...init,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
  } catch {
    throw new Error(CONNECTION_ERROR);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { message?: unknown };
    throw new Error(typeof body.message === "string" ? body.message : `The server answered ${res.status}.`);
  }
  return res;
}

/** Uploads `file` (a PDF of at most 10 MB) as the participant's consent document, replacing any earlier one. */
export async function uploadConsentDocument(participantId: string, file: File): Promise<void> {
  const form = new FormData();
  form.append("file", file, file.name);
  await send(participantId, { method: "POST", body: form });
}

/** Downloads the participant's consent document, offered to the browser as `filename`. */
export async function downloadConsentDocument(participantId: string, filename: string): Promise<void> {
  const res = await send(participantId, { method: "GET" });
  downloadBlob(filename, await res.blob());
}

/** Removes the participant's consent document. */
export async function removeConsentDocument(participantId: string): Promise<void> {
  await send(participantId, { method: "DELETE" });
}
