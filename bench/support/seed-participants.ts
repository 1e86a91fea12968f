import { sql } from "kysely";
import type { Database } from "@tafsiri/db";

/**
 * Seeds research participants (decision 024) and links the seeded audios to them: one participant
 * per `audiosPerParticipant` audios, codes `S000001`… after the seed's earlier ones, groups half
 * Control and half Dementia, both sexes, birth dates between 1930 and 1975 (a tenth known only as an
 * age in months), 0–20 years of education, an MMSE score, and consent mostly given (80 %), the
 * rest restricted, withdrawn or not recorded. Every audio without a participant is linked to one
 * of its own group, its session day its upload day. Returns how many participants were made.
 */
export async function seedParticipants(trx: Database, audiosPerParticipant = 10): Promise<number> {
  const { rows } = await sql<{ unlinked: string; first: string }>`
    select (select count(*) from audios where participant_id is null) as unlinked,
           (select coalesce(max(substring(code from '^S([0-9]+)$')::int), 0) + 1 from participants) as first`.execute(
    trx,
  );
  const count = Math.ceil(Number(rows[0]?.unlinked ?? 0) / audiosPerParticipant);
  if (count === 0) return 0;
  const first = Number(rows[0]?.first ?? 1);
  await sql`
    insert into participants (code, study_group, sex, birth_date, age_months, age_recorded_on, education_years,
                              languages, scores, consent_status, consent_date)
    select 'S' || lpad((${first} + n)::text, 6, '0'),
           case when n % 2 = 0 then 'Control' else 'Dementia' end,
           case when n % 5 = 4 then null when n % 3 = 0 then 'male' else 'female' end,
           case when n % 10 = 7 then null
                else to_char(date '1930-01-01' + ((n * 7919) % 16400), 'YYYY-MM-DD') end,
           case when n % 10 = 7 then 600 + (n * 13) % 360 else null end,
           case when n % 10 = 7 then '2026-01-15' else null end,
           (n * 31) % 21,
           '["eng","lug"]'::jsonb,
           jsonb_build_array(jsonb_build_object('instrument', 'MMSE', 'score', 10 + (n * 17) % 21, 'takenOn', '2026-01-15')),
           case when n % 20 < 16 then 'given' when n % 20 < 18 then 'restricted'
                when n % 20 = 18 then 'withdrawn' else 'not_recorded' end,
           case when n % 20 = 19 then null else '2026-01-10' end
    from generate_series(0, ${count - 1}) as n`.execute(trx);
  await sql`
    with numbered as (
      select id, category, row_number() over (partition by category order by created_at, id) - 1 as i
      from audios where participant_id is null
    ), people as (
      select id, study_group, row_number() over (partition by study_group order by code) - 1 as j,
             count(*) over (partition by study_group) as total
      from participants
    )
    update audios a set participant_id = p.id, session_date = to_char(a.created_at, 'YYYY-MM-DD')
    from numbered x join people p on p.study_group = x.category and p.j = x.i % p.total
    where a.id = x.id`.execute(trx);
  return count;
}
