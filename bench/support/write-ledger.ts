import { sql } from "kysely";
import type { Database } from "@tafsiri/db";

/** A transcript review a simulated admin makes. */
export type ReviewAction = "approve" | "reject";
type WrittenStatus = "Pending" | "Approved" | "Rejected";
const STATUS_AFTER: Record<ReviewAction | "save", WrittenStatus> = {
  save: "Pending",
  approve: "Approved",
  reject: "Rejected",
};

/** What the acknowledged writes of one audio's transcript leave, in the order they were acknowledged. */
interface AudioWrites {
  /** The text of the last acknowledged save (undefined: none in this run). */
  text: string | undefined;
  /** The transcript status the last acknowledged write set. */
  status: WrittenStatus;
  /** A write of this audio got no answer or a 5xx: it may or may not have committed. */
  uncertain: boolean;
}

/**
 * Every acknowledged transcript save and review of a load run, to read back afterwards ("no lost
 * write"). For the expected end state of an audio to be certain, a save and a review of the same
 * audio never run at once: `begin` refuses a save while a review of the audio is in flight and
 * the other way round (so the acknowledgement order is the commit order). Reviews of one audio
 * may race each other: each expects Pending, so the server lets exactly one win (409 for the
 * rest), and saves of one audio come from its assignee only, one after another.
 */
export class WriteLedger {
  private readonly audios = new Map<string, AudioWrites>();
  private readonly inFlight = new Map<string, { save: number; review: number }>();
  /** Every acknowledged save's text (each carries a unique marker). */
  readonly savedTexts: string[] = [];
  /** Acknowledged reviews per submission and action ("<submissionId> <action>"). */
  readonly reviews = new Map<string, number>();
  reviewCount = 0;

  /** Marks a write of `kind` on `audioId` in flight; false (nothing marked) while one of the other kind is. */
  begin(audioId: string, kind: "save" | "review"): boolean {
    const flight = this.inFlight.get(audioId) ?? { save: 0, review: 0 };
    if (flight[kind === "save" ? "review" : "save"] > 0) return false;
    flight[kind] += 1;
    this.inFlight.set(audioId, flight);
    return true;
  }

  /** Ends what `begin` marked. */
  end(audioId: string, kind: "save" | "review"): void {
    const flight = this.inFlight.get(audioId);
    if (!flight) return;
    flight[kind] -= 1;
    if (flight.save === 0 && flight.review === 0) this.inFlight.delete(audioId);
  }

  private writes(audioId: string): AudioWrites {
    let writes = this.audios.get(audioId);
    if (!writes) this.audios.set(audioId, (writes = { text: undefined, status: "Pending", uncertain: false }));
    return writes;
  }

  /** The server acknowledged a save of `text` as the transcript of `audioId`. */
  saved(audioId: string, text: string): void {
    const writes = this.writes(audioId);
    writes.text = text;
    writes.status = STATUS_AFTER.save;
    this.savedTexts.push(text);
  }

  /** The server acknowledged `action` on the transcript of `audioId` (submission `submissionId`). */
  reviewed(audioId: string, submissionId: string, action: ReviewAction): void {
    this.writes(audioId).status = STATUS_AFTER[action];
    const key = `${submissionId} ${action}`;
    this.reviews.set(key, (this.reviews.get(key) ?? 0) + 1);
    this.reviewCount += 1;
  }

  /** A write of `audioId` got no answer or a 5xx: its end state is not checked. */
  unsure(audioId: string): void {
    this.writes(audioId).uncertain = true;
  }

  /** The audios written, with what their acknowledged writes leave. */
  entries(): Array<[string, AudioWrites]> {
    return [...this.audios.entries()];
  }
}

/** What reading the acknowledged writes back found. */
export interface LedgerCheck {
  saves: { acknowledged: number; found: number };
  reviews: { acknowledged: number; found: number };
  /** Audios whose current transcript (text and status) is what their last acknowledged write left. */
  endStates: { checked: number; held: number; uncertain: number };
  /** Up to 10 descriptions of what is missing or different. */
  problems: string[];
}

/**
 * Reads `ledger`'s writes back from `db` (everything written since `since`, the database's clock
 * before the run): every acknowledged save's text is a transcript version of its audio; every
 * acknowledged review has its audit entry (action on the submission); and every audio's current
 * transcript status, and text when the run saved one, is what its last acknowledged write left
 * (audios with an unanswered write are counted apart). Resolves to the counts and the problems.
 */
export async function checkLedger(db: Database, ledger: WriteLedger, since: Date): Promise<LedgerCheck> {
  const entries = ledger.entries();
  const audioIds = entries.map(([id]) => id);
  const problems: string[] = [];
  const problem = (text: string) => {
    if (problems.length < 10) problems.push(text);
  };

  const { rows: versions } = await sql<{ text: string }>`
    select v.text from transcript_versions v
    join submissions s on s.id = v.submission_id join tasks t on t.id = s.task_id
    where t.audio_id = any(${audioIds}::uuid[]) and v.created_at >= ${since}`.execute(db);
  const stored = new Set(versions.map((v) => v.text));
  const savesFound = ledger.savedTexts.filter((text) => stored.has(text)).length;
  for (const text of ledger.savedTexts)
    if (!stored.has(text)) problem(`acknowledged save not stored: ${text.slice(-60)}`);

  const submissionIds = [...new Set([...ledger.reviews.keys()].map((key) => key.split(" ")[0]!))];
  const { rows: audits } = await sql<{ entityId: string; action: string; n: string }>`
    select entity_id, action, count(*) as n from audit_log
    where entity = 'transcript' and action in ('approve', 'reject') and created_at >= ${since}
      and entity_id = any(${submissionIds}::text[])
    group by entity_id, action`.execute(db);
  const audited = new Map(audits.map((a) => [`${a.entityId} ${a.action}`, Number(a.n)]));
  let reviewsFound = 0;
  for (const [key, acknowledged] of ledger.reviews) {
    const found = Math.min(acknowledged, audited.get(key) ?? 0);
    reviewsFound += found;
    if (found < acknowledged) problem(`review ${key}: ${acknowledged} acknowledged, ${found} in the audit log`);
  }

  const { rows: current } = await sql<{ audioId: string; status: string; text: string | null }>`
    select t.audio_id, s.translation_script_approval_status as status, v.text
    from tasks t join submissions s on s.task_id = t.id
    left join transcript_versions v on v.submission_id = s.id and v.file_key = s.translation_script
    where t.audio_id = any(${audioIds}::uuid[])`.execute(db);
  const now = new Map(current.map((r) => [r.audioId, r]));
  let checked = 0;
  let held = 0;
  let uncertain = 0;
  for (const [audioId, writes] of entries) {
    if (writes.uncertain) {
      uncertain += 1;
      continue;
    }
    checked += 1;
    const row = now.get(audioId);
    const textHeld = writes.text === undefined || row?.text === writes.text;
    if (row && row.status === writes.status && textHeld) held += 1;
    else
      problem(
        `audio ${audioId}: expected ${writes.status}${writes.text ? ` "…${writes.text.slice(-40)}"` : ""}, ` +
          `found ${row ? `${row.status} "…${(row.text ?? "").slice(-40)}"` : "no submission"}`,
      );
  }
  return {
    saves: { acknowledged: ledger.savedTexts.length, found: savesFound },
    reviews: { acknowledged: ledger.reviewCount, found: reviewsFound },
    endStates: { checked, held, uncertain },
    problems,
  };
}
