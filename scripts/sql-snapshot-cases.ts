// The queries src/queries/ shows, by file: each case runs real repository code once per dialect.
import type { Kysely } from 'kysely'
import type { DB } from '../src/db/index.ts'
import { parseReportParams } from '../src/analytics/index.ts'
import { compileReport } from '../src/analytics/report/sql.ts'
import { createOutboxQueue } from '../src/outbox/index.ts'
import type { PageParams } from '../src/paging/index.ts'
import { createAssetsRepository, NEWEST_FIRST } from '../src/resources/assets/index.ts'
import { createLabelsRepository } from '../src/resources/labels/index.ts'
import { createPlayersRepository } from '../src/resources/players/index.ts'
import { createUsersRepository } from '../src/resources/users/index.ts'

/** Runs Kysely queries on the recording database, or answers SQL it compiled itself (the report builder). */
type Case = (database: { db: Kysely<DB>, dialect: 'sqlite' | 'postgres' }) => Promise<unknown>

const ACCOUNT = 'a1'
/** The second page of a list: the keyset condition is part of the query. */
const SECOND_PAGE = { limit: 100, after: ['2026-11-22T10:00:00.000Z', 'f00d'] } as unknown as PageParams

export function querySnapshots (): Record<string, Record<string, Case>> {
  return {
    'hot-path': {
      'the credential of a signed request': async ({ db }) => await createUsersRepository(db).findCredential('code', 'code.key'),
      'a player by id': async ({ db }) => await createPlayersRepository(db).find(ACCOUNT, 'p1'),
      'an asset by embed code or external_id': async ({ db }) => await createAssetsRepository(db).findByRef(ACCOUNT, 'ref', undefined),
      'an upload_only caller\'s asset by embed code or external_id': async ({ db }) => await createAssetsRepository(db).findByRef(ACCOUNT, 'ref', 'u1')
    },
    'keyset-pages': {
      'labels, second page': async ({ db }) => await createLabelsRepository(db).page(ACCOUNT, { kind: 'all' }, SECOND_PAGE),
      'players, second page': async ({ db }) => await createPlayersRepository(db).page(ACCOUNT, SECOND_PAGE),
      'assets newest first, second page': async ({ db }) => await createAssetsRepository(db).page(ACCOUNT, { ownerId: undefined, order: NEWEST_FIRST }, SECOND_PAGE),
      'deleted assets, second page': async ({ db }) => await createAssetsRepository(db).pageDeleted(ACCOUNT, undefined, SECOND_PAGE)
    },
    outbox: {
      'the embedded consumer\'s claim': async (database) => await createOutboxQueue(database).claim('owner', Date.UTC(2026, 10, 22), 60_000, 500)
    },
    // The analytics store is DuckDB embedded, PostgreSQL in scale-out: the SQLite column shows DuckDB's.
    reports: {
      'plays and time watched by day and country, top 10 by plays': async ({ dialect }) => ({
        sql: compileReport(dialect === 'sqlite' ? 'duckdb' : 'postgres', ACCOUNT, parseReportParams({
          start_date: '2026-11-01', end_date: '2026-11-08', dimensions: 'country', metrics: 'plays_requested,time_watched', time_segment: 'day', sort: 'plays_requested', limit: '10'
        }, Date.UTC(2026, 10, 22)), undefined, 0).sql
      }),
      'every metric by label and device, filtered': async ({ dialect }) => ({
        sql: compileReport(dialect === 'sqlite' ? 'duckdb' : 'postgres', ACCOUNT, parseReportParams({
          start_date: '2026-11-01', end_date: '2026-11-08', dimensions: 'label,device_type', filters: "country=='PT';device_type!='tablet'", time_segment: 'total'
        }, Date.UTC(2026, 10, 22)), new Map([['asset1', ['label1']]]), 0).sql
      }),
      'every metric by country, device and browser, from the daily rollup': async ({ dialect }) => ({
        sql: compileReport(dialect === 'sqlite' ? 'duckdb' : 'postgres', ACCOUNT, parseReportParams({
          start_date: '2026-11-01', end_date: '2026-11-08', dimensions: 'country,device_type,browser', time_segment: 'total'
        }, Date.UTC(2026, 10, 22)), undefined, 0, 'daily').sql
      })
    }
  }
}
