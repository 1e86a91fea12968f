import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";

/** JWT_SECRET if set; otherwise a secret generated once and kept in DATA_DIR/jwt-secret. */
export async function loadJwtSecret(dataDir: string, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  const file = path.join(dataDir, "jwt-secret");
  try {
    return new TextEncoder().encode((await fs.readFile(file, "utf8")).trim());
  } catch {
    const secret = randomBytes(48).toString("base64url");
    await fs.mkdir(dataDir, { recursive: true });
    await fs.writeFile(file, secret, { mode: 0o600, flag: "wx" }).catch(async () => undefined);
    return new TextEncoder().encode((await fs.readFile(file, "utf8")).trim());
  }
}
