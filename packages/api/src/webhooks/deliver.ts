import http from "node:http";
import https from "node:https";
import { Webhook } from "standardwebhooks";
import {
  disableWebhookEndpoint,
  dueWebhookDeliveries,
  recordWebhookAttempt,
  setEndpointFailing,
  type DueWebhookDelivery,
} from "@tafsiri/db/repositories/webhooks";
import type { AppDeps } from "../context";
import { notifyAdmins } from "../services/notifications";
import { guardedLookup } from "./address-check";
import { webhookMessageId } from "./record-webhook-event";

/** How deliveries are made and retried (decision 037); tests shorten the times. */
export interface WebhookDeliveryOptions {
  /** Hosts that may resolve to private, loopback or link-local addresses (WEBHOOK_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  /** An attempt's whole time limit, ms (10 s). */
  timeoutMs: number;
  /** The first retry's delay, ms; each next one doubles (10 s). */
  retryBaseMs: number;
  /** The longest delay between two attempts, ms (1 h). */
  retryMaxDelayMs: number;
  /** How long after its first attempt a delivery is still retried, ms (24 h). */
  retryForMs: number;
  /** How long an endpoint's deliveries may fail without a success before it is disabled, ms (3 days). */
  disableAfterMs: number;
}

/** The defaults of decision 037. */
export const DEFAULT_WEBHOOK_DELIVERY: Omit<WebhookDeliveryOptions, "allowedHosts"> = {
  timeoutMs: 10_000,
  retryBaseMs: 10_000,
  retryMaxDelayMs: 3_600_000,
  retryForMs: 24 * 3_600_000,
  disableAfterMs: 3 * 24 * 3_600_000,
};

/** What one HTTP attempt came to: the answer's status code, or the error that kept it from one. */
interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** The most of an error message kept in the log, in characters. */
const ERROR_CHARS = 500;

/**
 * Decision 037: POSTs `body` to `url` once, signed with the Standard Webhooks headers
 * (`webhook-id`, `webhook-timestamp` = now in seconds, `webhook-signature` by the `standardwebhooks`
 * package with `secret`). Never follows a redirect (a 3xx is a failure), gives up after
 * `timeoutMs`, and connects only to addresses guardedLookup accepts. Succeeds on a 2xx.
 * Never rejects: failures are answered as `error`.
 */
async function sendWebhook(
  target: { url: string; secret: string; messageId: string; body: string },
  opts: Pick<WebhookDeliveryOptions, "allowedHosts" | "timeoutMs">,
): Promise<SendResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): SendResult => ({
    statusCode,
    error: error === null ? null : error.slice(0, ERROR_CHARS),
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    return done(null, `Not a URL: ${target.url}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return done(null, "Only http and https URLs are sent to.");
  const now = new Date();
  const signature = new Webhook(target.secret).sign(target.messageId, now, target.body);
  const headers = {
    "content-type": "application/json",
    "user-agent": "Tafsiri-Webhooks",
    "webhook-id": target.messageId,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signature,
  };
  return new Promise<SendResult>((resolve) => {
    const request = (url.protocol === "https:" ? https : http).request(url, {
      method: "POST",
      headers: { ...headers, "content-length": Buffer.byteLength(target.body) },
      lookup: guardedLookup(opts.allowedHosts),
      agent: false,
    });
    const timer = setTimeout(
      () => request.destroy(new Error(`No answer within ${opts.timeoutMs / 1000} s.`)),
      opts.timeoutMs,
    );
    const finish = (result: SendResult) => {
      clearTimeout(timer);
      resolve(result);
    };
    request.on("error", (error) => finish(done(null, error.message)));
    request.on("response", (response) => {
      const code = response.statusCode ?? 0;
      response.on("error", (error) => finish(done(code, error.message)));
      response.on("end", () => {
        if (code >= 200 && code < 300) finish(done(code, null));
        else if (code >= 300 && code < 400) {
          finish(done(code, `The receiver answered ${code}, a redirect; redirects are never followed.`));
        } else finish(done(code, `The receiver answered ${code}.`));
      });
      response.resume();
    });
    request.end(target.body);
  });
}

/**
 * The delay before attempt `attempt + 1`, ms: `retryBaseMs × 2^(attempt − 1)`, at most
 * `retryMaxDelayMs`, ±10 % jitter (so receivers coming back are not hit by every sender at once).
 */
function retryDelayMs(attempt: number, opts: Pick<WebhookDeliveryOptions, "retryBaseMs" | "retryMaxDelayMs">) {
  const delay = Math.min(opts.retryBaseMs * 2 ** Math.max(0, attempt - 1), opts.retryMaxDelayMs);
  return Math.round(delay * (0.9 + Math.random() * 0.2));
}

/** One delivery's attempt, logged; the endpoint disabled (and its admins told) after failing too long. */
async function attempt(
  deps: Pick<AppDeps, "db" | "events">,
  due: DueWebhookDelivery,
  opts: WebhookDeliveryOptions,
): Promise<"delivered" | "pending" | "failed"> {
  const sent = await sendWebhook(
    { url: due.url, secret: due.secret, messageId: webhookMessageId(due.eventId), body: due.body },
    opts,
  );
  const now = new Date();
  const firstAttemptAt = due.firstAttemptAt ?? now;
  const number = due.attempts + 1;
  const ok = sent.error === null;
  const retryAt = new Date(now.getTime() + retryDelayMs(number, opts));
  const status = ok ? "delivered" : now.getTime() - firstAttemptAt.getTime() >= opts.retryForMs ? "failed" : "pending";
  let disabled = false;
  await deps.db.transaction().execute(async (trx) => {
    await recordWebhookAttempt(trx, {
      deliveryId: due.id,
      attempt: number,
      statusCode: sent.statusCode,
      durationMs: sent.durationMs,
      error: sent.error,
      firstAttemptAt,
      status,
      nextRetryAt: status === "pending" ? retryAt : null,
    });
    const failingSince = await setEndpointFailing(trx, due.endpointId, !ok, now);
    if (failingSince && now.getTime() - failingSince.getTime() >= opts.disableAfterMs) {
      const reason = `Its deliveries failed for ${Math.round(opts.disableAfterMs / 3_600_000)} hours without a success.`;
      if (await disableWebhookEndpoint(trx, due.endpointId, reason)) {
        disabled = true;
        await notifyAdmins(trx, {
          senderId: null,
          message: `The webhook to ${due.url} was disabled: ${reason} Enable it again under Management → Webhooks.`,
          link: "/management/webhooks",
          audioId: null,
        });
      }
    }
  });
  if (disabled) deps.events.poke();
  return status;
}

/** How many of a round's attempts delivered, will be retried, or gave up. */
interface WebhookRoundCounts {
  delivered: number;
  retrying: number;
  failed: number;
}

/** Deliveries attempted at once in a round. */
const BATCH = 20;

/**
 * Decision 037: attempts every due delivery of an enabled endpoint (batches of 20 at once, oldest
 * due first) until none is due, logging each attempt and scheduling its retry. Run under the
 * `webhooks` job lock (startWebhookJob). Rejects only when the database cannot be asked.
 */
export async function deliverDueWebhooks(
  deps: Pick<AppDeps, "db" | "events">,
  opts: WebhookDeliveryOptions,
): Promise<WebhookRoundCounts> {
  const counts: WebhookRoundCounts = { delivered: 0, retrying: 0, failed: 0 };
  for (;;) {
    const due = await dueWebhookDeliveries(deps.db, BATCH);
    if (due.length === 0) return counts;
    const outcomes = await Promise.all(due.map((d) => attempt(deps, d, opts)));
    for (const o of outcomes) {
      if (o === "delivered") counts.delivered += 1;
      else if (o === "pending") counts.retrying += 1;
      else counts.failed += 1;
    }
  }
}
