/**
 * Decision 038: the text of the recovery codes' download (tafsiri-recovery-codes.txt): whose they
 * are, when they were made, how to use them, and the 10 codes, one a line.
 */
export function recoveryCodesFile(codes: string[], email: string, madeAt: Date): string {
  return [
    `Tafsiri recovery codes for ${email}`,
    `Made ${madeAt.toISOString().slice(0, 10)}. Each code signs you in once in place of an authenticator code.`,
    "Keep them somewhere safe. Making new codes ends these.",
    "",
    ...codes,
    "",
  ].join("\n");
}
