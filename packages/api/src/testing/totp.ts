import { generate } from "otplib";

/**
 * Decision 038, for tests (server and browser): the code an authenticator app shows for the base32
 * `secret` at `epochSeconds` (now when left out), computed by otplib with its defaults (SHA-1, 6
 * digits, 30 s), as the server checks it. 30 s back is the previous window's code.
 */
export function totpCode(secret: string, epochSeconds: number = Math.floor(Date.now() / 1000)): Promise<string> {
  return generate({ secret, epoch: epochSeconds });
}
