import { sql } from "kysely";
import { AGE_BANDS, type ConsentStatus, type ParticipantGroup, type Sex } from "@tafsiri/domain";
import type { DbTransaction, Executor } from "../connection";
import { withGenericPlan } from "../generic-plans";
import type { Category, NewParticipant, Participant, ParticipantUpdate } from "../schema";
import { countOfKey } from "./list-counts";
import { pageFromNearerEnd } from "./page-ends";
import { countRows, isOneOf, type TotalQuery } from "./pagination";

/**
 * Research participants (decision 024): reads and writes of the `participants` table, the audios
 * linked to them, and the balance counts. Days are YYYY-MM-DD text throughout.
 */

/** A participant with the number of audios linked to it. */
export type ParticipantWithCount = Participant & { audioCount: number };

/** The participant with this id, or undefined. */
export function findParticipant(db: Executor, id: string): Promise<Participant | undefined> {
  return db.selectFrom("participants").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The participant with this id, its row locked until `trx` ends; undefined when there is none. */
export function lockParticipant(trx: DbTransaction, id: string): Promise<Participant | undefined> {
  return trx.selectFrom("participants").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

/** The participant whose code is `code` whatever its case (participants_code_idx), or undefined. */
export function findParticipantByCode(db: Executor, code: string): Promise<Participant | undefined> {
  return db
    .selectFrom("participants")
    .selectAll()
    .where(sql`lower(code)`, "=", code.toLowerCase())
    .executeTakeFirst();
}

/** The participants whose codes are among `codes` (any case), in one query; empty for no codes. */
export async function findParticipantsByCodes(db: Executor, codes: readonly string[]): Promise<Participant[]> {
  if (codes.length === 0) return [];
  return db
    .selectFrom("participants")
    .selectAll()
    .where(
      sql<string>`lower(code)`,
      "in",
      codes.map((c) => c.toLowerCase()),
    )
    .execute();
}

/** Inserts participants (one statement) and returns them. */
export function insertParticipants(db: Executor, values: NewParticipant[]): Promise<Participant[]> {
  if (values.length === 0) return Promise.resolve([]);
  return db.insertInto("participants").values(values).returningAll().execute();
}

/** Updates a participant (updated_at set to now) and returns it. */
export function updateParticipantRow(db: Executor, id: string, values: ParticipantUpdate): Promise<Participant> {
  return db
    .updateTable("participants")
    .set({ ...values, updatedAt: new Date() })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** How many audios are linked to the participant (audios_participant_idx). */
export async function countParticipantAudios(db: Executor, participantId: string): Promise<number> {
  const row = await db
    .selectFrom("audios")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("participantId", "=", participantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many of the participant's linked audios are labelled with another category than `group`. */
export async function countAudiosOutsideGroup(
  db: Executor,
  participantId: string,
  group: ParticipantGroup,
): Promise<number> {
  const row = await db
    .selectFrom("audios")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("participantId", "=", participantId)
    .where("category", "!=", group)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Of `participantIds`, those with a linked audio labelled with another category than their new
 * group (`groups[i]` for `participantIds[i]`), in one query: their ids.
 */
export async function participantsWithAudiosOutsideGroup(
  db: Executor,
  changes: ReadonlyArray<{ participantId: string; group: ParticipantGroup }>,
): Promise<Set<string>> {
  if (changes.length === 0) return new Set();
  const rows = await db
    .selectFrom("audios")
    .select("participantId")
    .distinct()
    .where((eb) =>
      eb.or(changes.map((c) => eb.and([eb("participantId", "=", c.participantId), eb("category", "!=", c.group)]))),
    )
    .execute();
  return new Set(rows.map((r) => r.participantId).filter((id): id is string => id !== null));
}

/** The filters of the participants list: a code prefix (any case), the group, the consent status. */
export interface ParticipantListQuery {
  search?: string | undefined;
  group?: ParticipantGroup | undefined;
  consent?: ConsentStatus | undefined;
  page: number;
  limit: number;
}

/** A LIKE pattern matching values that start with `prefix` literally (`%`, `_` and `\` escaped). */
function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, "\\$&")}%`;
}

/** The participants matching the list's filters. */
function filteredParticipants(db: Executor, q: ParticipantListQuery) {
  let query = db.selectFrom("participants");
  if (q.search)
    query = query.where(sql<string>`lower(participants.code)`, "like", prefixPattern(q.search.toLowerCase()));
  if (q.group) query = query.where("participants.studyGroup", "=", q.group);
  if (q.consent) query = query.where("participants.consentStatus", "=", q.consent);
  return query;
}

/**
 * The number of participants matching the list's filters, as a one-row `total` query: without a
 * search, the count kept in list_counts under `participants:<group or *>:<consent or *>` (decision
 * 016, migration 20261211000400_participant_list_counts), a few index entries whatever the
 * table's size; with a code prefix, a count of its range of participants_code_idx.
 */
function participantListTotal(db: Executor, q: ParticipantListQuery): TotalQuery {
  if (q.search) return countRows(filteredParticipants(db, q));
  return countOfKey(db, `participants:${q.group ?? "*"}:${q.consent ?? "*"}`);
}

/**
 * One page of participants ordered by code (any case), filtered by a code prefix, group and
 * consent, with each row's number of linked audios and the total of matching rows, in ONE query:
 * the count left-joined laterally with the page, whose ids are read first by an index-only walk
 * of participants_list_order_idx / _group_order_idx / _consent_order_idx ((lower(code), id) in
 * the database's collation, migration 20261211000300; decision 010) from the nearer end of the
 * list (pageFromNearerEnd: a page past the middle is read backwards from the last, so no page
 * walks more than half the list; decision 030's anchors are timestamps), then only those rows
 * fetched with their audio count (a correlated count on audios_participant_idx). A code prefix is
 * a range of participants_code_idx (lower(code) text_pattern_ops), its matches sorted and counted.
 * Without a search the total is kept in list_counts (participantListTotal). Planned once per
 * connection (decision 017) without a search and with at most one filter, each served by its own
 * index whatever its value; not with a prefix LIKE (it needs its value to use the index) nor with
 * group and consent together (which index to walk depends on the two values).
 */
export async function listParticipants(
  db: Executor,
  q: ParticipantListQuery,
): Promise<{ items: ParticipantWithCount[]; total: number }> {
  const pageIds = pageFromNearerEnd({
    total: participantListTotal(db, q),
    walk: (reversed, gate) =>
      filteredParticipants(db, q)
        .where(gate)
        .select("participants.id")
        .orderBy(sql`lower(participants.code)`, reversed ? "desc" : "asc")
        .orderBy("participants.id", reversed ? "desc" : "asc"),
    page: q.page,
    limit: q.limit,
  });
  const pageRows = db
    .selectFrom("participants")
    .selectAll("participants")
    .select([
      sql<string>`lower(participants.code)`.as("sortKey"),
      (eb) =>
        eb
          .selectFrom("audios")
          .select((c) => c.fn.countAll<string>().as("n"))
          .whereRef("audios.participantId", "=", "participants.id")
          .as("audioCount"),
    ])
    .where(isOneOf("participants.id", pageIds));
  const query = db
    .selectFrom(participantListTotal(db, q).as("c"))
    .leftJoinLateral(pageRows.as("p"), (join) => join.onTrue())
    .selectAll("p")
    .select("c.total")
    .orderBy("p.sortKey")
    .orderBy("p.id");
  const generic = !q.search && !(q.group && q.consent);
  const rows = await (generic ? withGenericPlan(query) : query).execute();
  const total = Number(rows[0]?.total ?? 0);
  const items: ParticipantWithCount[] = [];
  for (const row of rows) {
    if (row.id === null) continue;
    const { total: _total, sortKey: _sortKey, audioCount, ...participant } = row;
    items.push({ ...(participant as Participant), audioCount: Number(audioCount ?? 0) });
  }
  return { items, total };
}

/** Every participant ordered by code (any case): the CSV export. */
export function listAllParticipants(db: Executor): Promise<Participant[]> {
  return db
    .selectFrom("participants")
    .selectAll()
    .orderBy(sql`lower(code)`)
    .orderBy("id")
    .execute();
}

/** An audio linked to a participant, as the participant's page lists it. */
export interface ParticipantAudioRow {
  id: string;
  filename: string;
  category: Category;
  sessionDate: string | null;
  durationSeconds: number | null;
  createdAt: Date;
}

/** The participant's linked audios, newest session first (no session day last), then newest upload. */
export function listParticipantAudios(db: Executor, participantId: string): Promise<ParticipantAudioRow[]> {
  return db
    .selectFrom("audios")
    .select(["id", "filename", "category", "sessionDate", "durationSeconds", "createdAt"])
    .where("participantId", "=", participantId)
    .orderBy(sql`session_date desc nulls last`)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
}

/** Links the audio to a participant and a session day (both null: unlinks it). */
export async function setAudioParticipant(
  db: Executor,
  audioId: string,
  link: { participantId: string | null; sessionDate: string | null },
): Promise<void> {
  await db
    .updateTable("audios")
    .set({ participantId: link.participantId, sessionDate: link.sessionDate })
    .where("id", "=", audioId)
    .execute();
}

/** Records (or clears, with nulls) the participant's consent document: its storage key and file name. */
export async function setConsentDocument(
  db: Executor,
  participantId: string,
  doc: { key: string | null; name: string | null },
): Promise<void> {
  await db
    .updateTable("participants")
    .set({ consentDocumentKey: doc.key, consentDocumentName: doc.name, updatedAt: new Date() })
    .where("id", "=", participantId)
    .execute();
}

/** One cell of the balance counts. */
export interface BalanceCountRow {
  group: ParticipantGroup;
  sex: Sex | null;
  ageBand: (typeof AGE_BANDS)[number];
  participants: number;
  approvedRecordings: number;
}

/**
 * The balance counts (decision 024) in ONE statement: participants by group × sex × age band (age
 * on `today`), and approved recordings (audios linked to a participant whose task is complete:
 * transcript and recording both Approved) by the participant's group × sex × age band at the
 * session day, or at the audio's upload day in UTC when it has none. The recordings are read from
 * participant_band_counts, which triggers keep (migration 20261209000000_participant_band_counts),
 * so the statement joins about one row per participant, not every complete task. Only non-empty cells.
 */
export async function balanceCounts(db: Executor, q: { today: string }): Promise<BalanceCountRow[]> {
  const result = await sql<{
    grp: ParticipantGroup;
    sex: Sex | null;
    band: string;
    people: string;
    recordings: string;
  }>`
    with cells as (
      select p.study_group as grp, p.sex as sex,
             participant_age_band(participant_age_months(p.birth_date, p.age_months, p.age_recorded_on, ${q.today}::text)) as band,
             1 as people, 0 as recordings
      from participants p
      union all
      select p.study_group, p.sex, b.age_band, 0, b.recordings
      from participant_band_counts b
      join participants p on p.id = b.participant_id
    )
    select grp, sex, band, sum(people) as people, sum(recordings) as recordings
    from cells
    group by 1, 2, 3`.execute(db);
  return result.rows.map((r) => ({
    group: r.grp,
    sex: r.sex,
    ageBand: r.band as BalanceCountRow["ageBand"],
    participants: Number(r.people),
    approvedRecordings: Number(r.recordings),
  }));
}
