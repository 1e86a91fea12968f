import { z } from "zod";
import type { AuthenticationExtensionsClientOutputs } from "@simplewebauthn/server";
import {
  PASSKEY_NAME_MAX_LENGTH,
  PASSKEY_NAME_REQUIRED,
  PASSKEY_NAME_TOO_LONG,
  PASSKEY_NOT_VERIFIED,
} from "@tafsiri/domain";
import { ZId } from "./common";

/**
 * Decision 038, passkeys: the WebAuthn options the server sends (PublicKeyCredential*OptionsJSON
 * of @simplewebauthn) and the authenticator's answers it accepts, with bounds on every field (an
 * answer is a few hundred bytes; a credential id is at most 1023 bytes).
 */

/** A base64url field of at most `max` characters (padding tolerated); else PASSKEY_NOT_VERIFIED. */
const b64url = (max: number) =>
  z
    .string({ error: PASSKEY_NOT_VERIFIED })
    .max(max, PASSKEY_NOT_VERIFIED)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, PASSKEY_NOT_VERIFIED);

const ZCredentialId = b64url(1400).min(1, PASSKEY_NOT_VERIFIED);
const ZTransports = z.array(z.string().max(32)).max(10);
const ZAttachment = z.enum(["platform", "cross-platform"]).optional();

/** What the browser reports of extensions (credProps, prf…): an object, unused by the checks. */
const ZExtensionResults = z
  .custom<AuthenticationExtensionsClientOutputs>(
    (value) => typeof value === "object" && value !== null && !Array.isArray(value),
    PASSKEY_NOT_VERIFIED,
  )
  .default({});

const ZPasskeyName = z
  .string({ error: PASSKEY_NAME_REQUIRED })
  .trim()
  .min(1, PASSKEY_NAME_REQUIRED)
  .max(PASSKEY_NAME_MAX_LENGTH, PASSKEY_NAME_TOO_LONG);

/** The answer of navigator.credentials.create (RegistrationResponseJSON). */
const ZRegistrationResponse = z.object({
  id: ZCredentialId,
  rawId: ZCredentialId,
  type: z.literal("public-key", { error: PASSKEY_NOT_VERIFIED }),
  authenticatorAttachment: ZAttachment,
  clientExtensionResults: ZExtensionResults,
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(16_384),
    authenticatorData: b64url(16_384).optional(),
    transports: ZTransports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4096).optional(),
  }),
});

/** The answer of navigator.credentials.get (AuthenticationResponseJSON). */
export const ZAuthenticationResponse = z.object({
  id: ZCredentialId,
  rawId: ZCredentialId,
  type: z.literal("public-key", { error: PASSKEY_NOT_VERIFIED }),
  authenticatorAttachment: ZAttachment,
  clientExtensionResults: ZExtensionResults,
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(4096),
    signature: b64url(1024),
    userHandle: b64url(128).optional(),
  }),
});

/** A new passkey: the authenticator's answer and, optionally, its name (else 'Passkey N'). */
export const ZRegisterPasskeyInput = z.object({
  name: z
    .string()
    .trim()
    .max(PASSKEY_NAME_MAX_LENGTH, PASSKEY_NAME_TOO_LONG)
    .optional()
    .transform((name) => (name === "" ? undefined : name)),
  response: ZRegistrationResponse,
});

export const ZPasskeySignInInput = z.object({ response: ZAuthenticationResponse });
export const ZRenamePasskeyInput = z.object({ passkeyId: ZId, name: ZPasskeyName });
export const ZPasskeyIdInput = z.object({ passkeyId: ZId });

const ZPasskeyView = z.object({
  id: z.string(),
  name: z.string(),
  deviceType: z.enum(["singleDevice", "multiDevice"]),
  backedUp: z.boolean(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export const ZOwnPasskeys = z.object({ passkeys: z.array(ZPasskeyView) });
export const ZRegisteredPasskey = z.object({ passkey: ZPasskeyView, message: z.string() });

const ZCredentialDescriptor = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.array(z.string()).optional(),
});
const ZUserVerification = z.enum(["required", "preferred", "discouraged"]).optional();

/** PublicKeyCredentialCreationOptionsJSON, as generateRegistrationOptions makes it. */
export const ZRegistrationOptions = z.object({
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.string() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(ZCredentialDescriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
      residentKey: z.enum(["discouraged", "preferred", "required"]).optional(),
      requireResidentKey: z.boolean().optional(),
      userVerification: ZUserVerification,
    })
    .optional(),
  hints: z.array(z.enum(["hybrid", "security-key", "client-device"])).optional(),
  attestation: z.enum(["direct", "enterprise", "indirect", "none"]).optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});

/** PublicKeyCredentialRequestOptionsJSON, as generateAuthenticationOptions makes it. */
export const ZAuthenticationOptions = z.object({
  challenge: z.string(),
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(ZCredentialDescriptor).optional(),
  userVerification: ZUserVerification,
});
