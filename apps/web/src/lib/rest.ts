import { readSession } from "./session";

/** The documented REST answer shape (SPEC §7.3). */
export interface RestResult {
  status?: string;
  success?: boolean;
  message?: string;
  [key: string]: unknown;
}

export const CONNECTION_ERROR = "Cannot connect to the server. Please try again later.";

/**
 * Sends a multipart form to a REST path with the session's Bearer token.
 * Never throws: a network failure answers `{ status: 'failed', message: CONNECTION_ERROR }` (SPEC §7.3).
 */
export async function postForm(
  path: string,
  form: FormData,
  onProgress?: (fraction: number) => void,
): Promise<RestResult> {
  const token = readSession()?.token;
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: RestResult = {};
      try {
        body = JSON.parse(xhr.responseText) as RestResult;
      } catch {
        body = { message: xhr.statusText };
      }
      if (xhr.status >= 400 && body.status !== "failed") body = { ...body, status: "failed" };
      resolve(body);
    };
    xhr.onerror = () => resolve({ status: "failed", message: CONNECTION_ERROR });
    xhr.send(form);
  });
}
