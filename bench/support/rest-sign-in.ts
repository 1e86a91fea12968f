/**
 * Signs `account` in through `POST /auth/login` of the server at `baseUrl` and returns its Bearer
 * token; throws with the status and message when refused.
 */
export async function restSignIn(baseUrl: string, account: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${baseUrl}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  const body = (await res.json()) as { token?: string; message?: string };
  if (!res.ok || !body.token) throw new Error(`POST /auth/login answered ${res.status}: ${body.message ?? ""}`);
  return body.token;
}
