import http from "node:http";
import https from "node:https";
import { Webhook } from "standardwebhooks";
import {
  disableWebhookEndpoint,
  dueWebhookDeliveries,
  recordWebhookAttempts,
  setEndpointsFailing,
  type DueWebhookDelivery,
  type WebhookAttemptOutcome,
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
  /**
   * The least time between the starts of two attempts, ms (2: at most 500 a second). A round's
   * attempts are spread out rather than sent in one burst, which on a small machine holds up the
   * app's own requests (the reads' tail in `npm run bench -- webhooks`).
   */
  startGapMs: number;
}

/** The defaults of decision 037. */
export const DEFAULT_WEBHOOK_DELIVERY: Omit<WebhookDeliveryOptions, "allowedHosts"> = {
  timeoutMs: 10_000,
  retryBaseMs: 10_000,
  retryMaxDelayMs: 3_600_000,
  retryForMs: 24 * 3_600_000,
  disableAfterMs: 3 * 24 * 3_600_000,
  startGapMs: 2,
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
 * How long a connection to a receiver is kept open between attempts, ms: under the 5 s after which
 * Node's and most servers close an idle keep-alive connection, so an attempt never starts on a
 * connection the receiver is closing.
 */
const IDLE_CONNECTION_MS = 4_000;

/** Keep-alive agents by protocol and allow-list (see agentFor). */
const agents = new Map<string, http.Agent>();

/**
 * Decision 037: the agent that keeps connections to receivers alive between attempts (at 100
 * deliveries a second a connection per attempt costs both sides a handshake each). One per protocol
 * and allow-list, so a connection made under one allow-list (its address checked by guardedLookup
 * when it was opened) is never reused under another; idle ones close after IDLE_CONNECTION_MS.
 */
function agentFor(protocol: "http:" | "https:", allowedHosts: readonly string[]): http.Agent {
  const key = `${protocol} ${allowedHosts.join(",")}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, lookup: guardedLookup(allowedHosts) };
    agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * Decision 037: POSTs `body` to `url` once, signed with the Standard Webhooks headers
 * (`webhook-id`, `webhook-timestamp` = now in seconds, `webhook-signature` by the `standardwebhooks`
 * package with `secret`). Never follows a redirect (a 3xx is a failure), gives up after
 * `timeoutMs`, and connects only to addresses guardedLookup accepts (reusing a connection kept
 * alive by agentFor; sent again over a new one when the receiver had just closed it). Succeeds on a 2xx.
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
  const protocol = url.protocol;
  if (protocol !== "http:" && protocol !== "https:") return done(null, "Only http and https URLs are sent to.");
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
    let request: http.ClientRequest;
    const timer = setTimeout(
      () => request.destroy(new Error(`No answer within ${opts.timeoutMs / 1000} s.`)),
      opts.timeoutMs,
    );
    const finish = (result: SendResult) => {
      clearTimeout(timer);
      resolve(result);
    };
    /** Sends the request; `onKeptConnection` false once a kept connection turned out closed. */
    const send = (onKeptConnection: boolean) => {
      request = (protocol === "https:" ? https : http).request(url, {
        method: "POST",
        headers: { ...headers, "content-length": Buffer.byteLength(target.body) },
        // The agent's own `lookup` (guardedLookup) checks the address of every connection it opens.
        agent: agentFor(protocol, opts.allowedHosts),
      });
      request.on("error", (error: NodeJS.ErrnoException) => {
        // The receiver closed a kept connection as the request went out (Node's documented case
        // for `reusedSocket`): sent again at once over a new connection, within the same time limit.
        if (onKeptConnection && request.reusedSocket && error.code === "ECONNRESET") send(false);
        else finish(done(null, error.message));
      });
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
    };
    send(true);
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

/**
 * Decision 037: logs a round's attempts (`answered`, in the order the answers came: each due
 * delivery with what its attempt came to) and moves their deliveries and endpoints on, in one statement when
 * every endpoint's last attempt succeeded, otherwise in one transaction:
 * each delivery delivered, retried later or given up; each endpoint's failing time from its
 * attempts in answer order (a success clears it, a failure starts it unless it runs already); an
 * endpoint failing too long disabled, with its admins told. Returns each delivery's new status,
 * in the order of `answered`.
 */
async function recordRound(
  deps: Pick<AppDeps, "db" | "events">,
  answered: Array<{ due: DueWebhookDelivery; sent: SendResult }>,
  opts: WebhookDeliveryOptions,
): Promise<Array<"delivered" | "pending" | "failed">> {
  const now = new Date();
  const outcomes: WebhookAttemptOutcome[] = answered.map(({ due: d, sent: answer }) => {
    const firstAttemptAt = d.firstAttemptAt ?? now;
    const number = d.attempts + 1;
    const status =
      answer.error === null
        ? "delivered"
        : now.getTime() - firstAttemptAt.getTime() >= opts.retryForMs
          ? "failed"
          : "pending";
    return {
      deliveryId: d.id,
      attempt: number,
      statusCode: answer.statusCode,
      durationMs: answer.durationMs,
      error: answer.error,
      firstAttemptAt,
      status,
      nextRetryAt: status === "pending" ? new Date(now.getTime() + retryDelayMs(number, opts)) : null,
    };
  });
  // Per endpoint, in answer order: did its last attempt succeed, and did any?
  const lastOk = new Map<string, boolean>();
  const anyOk = new Set<string>();
  for (const { due: d, sent: answer } of answered) {
    const ok = answer.error === null;
    lastOk.set(d.endpointId, ok);
    if (ok) anyOk.add(d.endpointId);
  }
  const ids = { succeeded: [] as string[], restarted: [] as string[], failed: [] as string[] };
  for (const [id, ok] of lastOk) (ok ? ids.succeeded : anyOk.has(id) ? ids.restarted : ids.failed).push(id);
  const urls = new Map(answered.map(({ due: d }) => [d.endpointId, d.url]));
  let disabled = false;
  if (ids.restarted.length + ids.failed.length === 0) {
    // Every endpoint's last attempt succeeded: one statement, no transaction.
    await recordWebhookAttempts(deps.db, outcomes, ids.succeeded, now);
    return outcomes.map((o) => o.status);
  }
  await deps.db.transaction().execute(async (trx) => {
    await recordWebhookAttempts(trx, outcomes, ids.succeeded, now);
    for (const { id, failingSince } of await setEndpointsFailing(trx, ids, now)) {
      if (now.getTime() - failingSince.getTime() < opts.disableAfterMs) continue;
      const reason = `Its deliveries failed for ${Math.round(opts.disableAfterMs / 3_600_000)} hours without a success.`;
      if (await disableWebhookEndpoint(trx, id, reason)) {
        disabled = true;
        await notifyAdmins(trx, {
          senderId: null,
          message: `The webhook to ${urls.get(id)} was disabled: ${reason} Enable it again under Management → Webhooks.`,
          link: "/management/webhooks",
          audioId: null,
        });
      }
    }
  });
  if (disabled) deps.events.poke();
  return outcomes.map((o) => o.status);
}

/** How many of a round's attempts delivered, will be retried, or gave up. */
interface WebhookRoundCounts {
  delivered: number;
  retrying: number;
  failed: number;
}

/** Attempts in flight at once, across endpoints. */
const AT_ONCE = 24;
/** Attempts in flight at once to one endpoint, so that a slow receiver holds up only its own deliveries. */
const PER_ENDPOINT = 4;
/** Deliveries read at once. */
const READ = 100;
/**
 * While attempts are in flight, the answered ones are logged together (recordRound) and what
 * fell due is read at most this often, ms; when none is in flight, at once.
 */
const CYCLE_MS = 100;
/** A call's longest run, ms: then it stops reading, so the job lock's holder is checked again. */
const LONGEST_RUN_MS = 30_000;

/**
 * Decision 037: attempts every due delivery of an enabled endpoint, oldest due first, as a
 * pipeline: at most 24 attempts in flight, at most 4 of them to one endpoint, the next started
 * as soon as one answers, no two sent less than `startGapMs` (2 ms) apart; the answered ones are
 * logged together (recordRound) and the next due ones read (100 at a time, minus those in flight
 * and the endpoints at their 4) every 100 ms while attempts are in flight, at once when none is.
 * So a receiver that answers slowly or not at all holds its own 4 attempts, never the other
 * endpoints' deliveries; the database's share per delivery stays small when the server is busy,
 * and the attempts of a round do not land on the cores all at once. Returns once nothing is in
 * flight and nothing more was due when last read (what commits later wakes the job again, and the
 * poll finds the rest), or, after 30 s or once `stopping()` holds, once what is in flight (waiting
 * for its turn included) has answered and is logged.
 * Run under the `webhooks` job lock (startWebhookJob). Takes the database and event bus and the
 * delivery options; returns how many attempts delivered, will be retried, or gave up. Rejects only
 * when the database cannot be asked (attempts in flight then answer unlogged, and are sent again).
 */
export async function deliverDueWebhooks(
  deps: Pick<AppDeps, "db" | "events">,
  opts: WebhookDeliveryOptions,
  stopping: () => boolean = () => false,
): Promise<WebhookRoundCounts> {
  const counts: WebhookRoundCounts = { delivered: 0, retrying: 0, failed: 0 };
  const began = performance.now();
  /** Endpoint of each delivery in flight, by delivery id. */
  const inFlight = new Map<string, string>();
  const perEndpoint = new Map<string, number>();
  /** Read and not started yet (their endpoint at its 4, or 24 in flight). */
  let queue: DueWebhookDelivery[] = [];
  /** Answered and not logged yet, in answer order. */
  let answered: Array<{ due: DueWebhookDelivery; sent: SendResult }> = [];
  let oldestAnswerAt = 0;
  let lastReadAt = -Infinity;
  /** The last read, of every endpoint, found fewer than READ: nothing more was due then (a later commit wakes the job). */
  let lastReadShort = false;
  let onAnswer: (() => void) | null = null;

  const fits = (d: DueWebhookDelivery) =>
    inFlight.size < AT_ONCE && (perEndpoint.get(d.endpointId) ?? 0) < PER_ENDPOINT;
  /** When the next attempt may be sent (performance.now() ms): attempts are startGapMs apart. */
  let nextSendAt = 0;
  /** Takes an in-flight slot for `d` now and sends it at its turn (at once when none is waiting). */
  const start = (d: DueWebhookDelivery) => {
    inFlight.set(d.id, d.endpointId);
    perEndpoint.set(d.endpointId, (perEndpoint.get(d.endpointId) ?? 0) + 1);
    const send = () =>
      void sendWebhook(
        { url: d.url, secret: d.secret, messageId: webhookMessageId(d.eventId), body: d.body },
        opts,
      ).then((sent) => {
        inFlight.delete(d.id);
        perEndpoint.set(d.endpointId, perEndpoint.get(d.endpointId)! - 1);
        if (answered.length === 0) oldestAnswerAt = performance.now();
        answered.push({ due: d, sent });
        onAnswer?.();
      });
    const now = performance.now();
    const sendAt = Math.max(now, nextSendAt);
    nextSendAt = sendAt + opts.startGapMs;
    if (sendAt > now) setTimeout(send, sendAt - now);
    else send();
  };
  const logAnswered = async () => {
    const batch = answered;
    answered = [];
    const statuses = await recordRound(deps, batch, opts);
    for (const o of statuses) {
      if (o === "delivered") counts.delivered += 1;
      else if (o === "pending") counts.retrying += 1;
      else counts.failed += 1;
    }
  };

  for (;;) {
    const now = performance.now();
    const idle = inFlight.size === 0;
    const reading = !stopping() && now - began < LONGEST_RUN_MS;
    if (answered.length > 0 && (idle || now - oldestAnswerAt >= CYCLE_MS)) await logAnswered();
    if (!reading) queue = [];
    else if (
      answered.length === 0 &&
      inFlight.size < AT_ONCE &&
      !queue.some(fits) &&
      (idle ? !lastReadShort : now - lastReadAt >= CYCLE_MS)
    ) {
      const busy = [...perEndpoint].filter(([, n]) => n >= PER_ENDPOINT).map(([id]) => id);
      queue = await dueWebhookDeliveries(deps.db, READ, { besides: [...inFlight.keys()], endpointsBesides: busy });
      lastReadAt = performance.now();
      lastReadShort = queue.length < READ && busy.length === 0;
    }
    queue = queue.filter((d) => {
      if (!fits(d)) return true;
      start(d);
      return false;
    });
    if (inFlight.size === 0 && answered.length === 0 && queue.length === 0) return counts;
    if (inFlight.size === 0) continue;
    // Until an attempt answers or the cycle's time comes.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CYCLE_MS);
      onAnswer = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    onAnswer = null;
  }
}
