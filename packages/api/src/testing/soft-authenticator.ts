import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A software WebAuthn authenticator for server tests (decision 038): real ES256 keys (node:crypto),
 * real clientDataJSON, authenticator data and 'none' attestation objects (CBOR), so what the server
 * verifies is what a browser and a platform authenticator would send. It keeps its credentials and
 * each one's signature counter (raised by 1 per assertion, or kept at 0 like synced passkeys).
 */

/** One credential the authenticator made. */
export interface SoftCredential {
  /** base64url credential id. */
  id: string;
  /** base64url user handle the relying party gave at registration. */
  userHandle: string;
  rpId: string;
  privateKey: KeyObject;
  counter: number;
  /** Whether its counter stays 0 (as synced passkeys keep none). */
  noCounter: boolean;
}

/** Where a ceremony's answer claims to come from (the tests change it to play a wrong site). */
interface CeremonyOrigin {
  origin?: string;
  rpId?: string;
}

/** What isoCBOR encodes. */
type CborValue = Parameters<typeof isoCBOR.encode>[0];

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString("base64url");

function clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");
}

/** The 4-byte big-endian counter. */
function counterBytes(counter: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(counter);
  return b;
}

/** The COSE (RFC 9053) form of an EC P-256 public key: kty 2, alg -7 (ES256), crv 1, x, y. */
function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: "jwk" });
  const cose = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x!, "base64url")],
    [-3, Buffer.from(jwk.y!, "base64url")],
  ]);
  return isoCBOR.encode(cose);
}

/** A software authenticator for the relying party at `origin` with ID `rpId`. */
export function createSoftAuthenticator(rp: { origin: string; rpId: string }) {
  const credentials: SoftCredential[] = [];
  return {
    credentials,
    /**
     * Makes a credential for `options` (from passkeys.registrationOptions) and answers as
     * navigator.credentials.create would; `claim` changes the origin or RP ID it claims.
     */
    register(
      options: Pick<PublicKeyCredentialCreationOptionsJSON, "challenge" | "user">,
      claim: CeremonyOrigin & { noCounter?: boolean } = {},
    ): RegistrationResponseJSON {
      const rpId = claim.rpId ?? rp.rpId;
      const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
      const id = randomBytes(16);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([FLAG_UP | FLAG_UV | FLAG_AT]),
        counterBytes(0),
        Buffer.alloc(16), // AAGUID: none
        Buffer.from([0, id.length]),
        id,
        coseKey(publicKey),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, CborValue>([
          ["fmt", "none"],
          ["attStmt", new Map<string, CborValue>()],
          ["authData", authData],
        ]),
      );
      credentials.push({
        id: b64url(id),
        userHandle: options.user.id,
        rpId,
        privateKey,
        counter: 0,
        noCounter: claim.noCounter ?? false,
      });
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: "public-key",
        authenticatorAttachment: "platform",
        clientExtensionResults: { credProps: { rk: true } },
        response: {
          clientDataJSON: b64url(clientData("webauthn.create", options.challenge, claim.origin ?? rp.origin)),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
      };
    },
    /**
     * Signs `options` (from passkeys.signInOptions or a confirmation) with `credential` (default: the
     * last made) and answers as navigator.credentials.get would; `claim` changes the origin or RP ID.
     */
    assert(
      options: Pick<PublicKeyCredentialRequestOptionsJSON, "challenge">,
      credential: SoftCredential | undefined = credentials.at(-1),
      claim: CeremonyOrigin = {},
    ): AuthenticationResponseJSON {
      if (!credential) throw new Error("The soft authenticator holds no credential yet.");
      if (!credential.noCounter) credential.counter += 1;
      const authData = Buffer.concat([
        sha256(claim.rpId ?? credential.rpId),
        Buffer.from([FLAG_UP | FLAG_UV]),
        counterBytes(credential.counter),
      ]);
      const data = clientData("webauthn.get", options.challenge, claim.origin ?? rp.origin);
      const signature = sign("sha256", Buffer.concat([authData, sha256(data)]), credential.privateKey);
      return {
        id: credential.id,
        rawId: credential.id,
        type: "public-key",
        authenticatorAttachment: "platform",
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
      };
    },
  };
}
