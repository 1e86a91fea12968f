import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import nodemailer from "nodemailer";

/** One plain-text e-mail. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail (ARCHITECTURE "Settings": SMTP via SMTP_URL, or .eml files in DATA_DIR/outbox). */
export interface Mailer {
  /** Where messages go: an SMTP server, or .eml files in the outbox (links are then also logged). */
  readonly kind: "smtp" | "outbox";
  /** Sends `message`; resolves once it is handed to the SMTP server or written to the outbox. */
  send(message: MailMessage): Promise<void>;
}

/** The sender of every message. */
const MAIL_FROM = "Tafsiri <no-reply@tafsiri.local>";

/**
 * A nodemailer mailer: to `smtpUrl` when given (smtp:// or smtps://), otherwise each message is
 * built with nodemailer's stream transport and written to `outboxDir/<time>-<id>.eml`.
 * `log` is told where each outbox message went.
 */
export function createMailer(opts: {
  smtpUrl?: string | undefined;
  outboxDir: string;
  log?: (line: string) => void;
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      kind: "smtp",
      async send(message) {
        await transport.sendMail({ from: MAIL_FROM, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "outbox",
    async send(message) {
      const info = await transport.sendMail({ from: MAIL_FROM, ...message });
      await mkdir(opts.outboxDir, { recursive: true });
      const file = path.join(opts.outboxDir, `${Date.now()}-${randomBytes(4).toString("hex")}.eml`);
      await writeFile(file, info.message as Buffer);
      opts.log?.(`Mail to ${message.to} written to ${file}`);
    },
  };
}
