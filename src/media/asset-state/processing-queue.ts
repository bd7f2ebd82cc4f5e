import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sql, type Kysely } from 'kysely'
import { Type, type Static } from 'typebox'
import type { Caller } from '../../auth/caller.ts'
import type { DB } from '../../db/tables/index.ts'
import { callerOf } from '../../http/request-types.ts'
import { SignedErrors, SignedQuery } from '../../http/schemas.ts'
import { apiTime } from '../../lib/clock.ts'

const QueuedJob = Type.Object({
  asset_id: Type.String({ description: 'The asset the job processes', examples: ['3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'] }),
  kind: Type.Union([Type.Literal('ingest'), Type.Literal('replacement'), Type.Literal('captions')], { description: 'ingest: a new upload; replacement: a replaced file; captions: a generated caption track', examples: ['ingest'] }),
  state: Type.Union([Type.Literal('queued'), Type.Literal('running')], { description: 'queued: waiting for a worker; running: a worker has it', examples: ['queued'] }),
  queue_position: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'While queued, its place among every account\'s waiting jobs (1: next); null while running', examples: [2] }),
  attempts: Type.Integer({ minimum: 0, description: 'Attempts begun so far', examples: [1] }),
  queued_at: Type.String({ description: 'When the job was queued', examples: ['2026-11-27T10:00:00Z'] }),
  started_at: Type.Union([Type.String(), Type.Null()], { description: 'When the running attempt began; null while queued', examples: ['2026-11-27T10:01:00Z'] })
}, { title: 'QueuedJob', description: 'A media job of the account, waiting or running' })

export const ProcessingQueue = Type.Object({
  items: Type.Array(QueuedJob, { description: 'The account\'s waiting jobs in the order workers take them, after its running ones' }),
  waiting: Type.Integer({ minimum: 0, description: 'Jobs waiting in the whole queue (every account\'s; the queue is shared)', examples: [4] }),
  running: Type.Integer({ minimum: 0, description: 'Jobs running in the whole queue', examples: [2] })
}, { title: 'ProcessingQueue', description: 'The media processing queue as an account sees it' })

export const ProcessingQueueQuery = Type.Object({
  ...SignedQuery,
  state: Type.Optional(Type.Union([Type.Literal('queued'), Type.Literal('running')], { description: 'Only the jobs in this state', examples: ['queued'] })),
  limit: Type.Optional(Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: 'At most this many jobs, 1–100 (default 100)', examples: ['20'] }))
}, { additionalProperties: false })

export type ApiProcessingQueue = Static<typeof ProcessingQueue>

/**
 * The queue as the caller's account sees it: its own jobs waiting and running (another account's are
 * never named), each waiting one with its place among every account's waiting jobs, and the whole
 * queue's counts. One query numbers the waiting jobs in the order workers take them (oldest first).
 */
export async function processingQueue (db: Kysely<DB>, caller: Caller, query: Static<typeof ProcessingQueueQuery>): Promise<ApiProcessingQueue> {
  const limit = query.limit === undefined ? 100 : Number(query.limit)
  const states: Array<'pending' | 'running'> = query.state === undefined ? ['pending', 'running'] : [query.state === 'queued' ? 'pending' : 'running']
  const numbered = db.selectFrom('media_jobs')
    .select(['id', 'account_id', 'asset_id', 'kind', 'state', 'attempts', 'created_at'])
    .select(sql<number | string>`row_number() over (partition by state order by created_at, id)`.as('position'))
    .where('state', 'in', ['pending', 'running'])
    .as('numbered')
  const rows = await db.selectFrom(numbered)
    .leftJoin('media_versions', (join) => join.onRef('media_versions.job_id', '=', 'numbered.id')
      .onRef('media_versions.account_id', '=', 'numbered.account_id').on('media_versions.state', 'in', ['processing', 'current']))
    .select(['numbered.asset_id', 'numbered.kind', 'numbered.state', 'numbered.attempts', 'numbered.created_at', 'numbered.position'])
    .select((eb) => eb.fn.max('media_versions.created_at').as('started_at'))
    .where('numbered.account_id', '=', caller.accountId).where('numbered.state', 'in', states)
    .groupBy(['numbered.id', 'numbered.asset_id', 'numbered.kind', 'numbered.state', 'numbered.attempts', 'numbered.created_at', 'numbered.position'])
    .orderBy('numbered.state', 'desc').orderBy('numbered.position').limit(limit).execute()
  const counts = await db.selectFrom('media_jobs').select((eb) => ['state', eb.fn.countAll<number | string>().as('n')])
    .where('state', 'in', ['pending', 'running']).groupBy('state').execute()
  const count = (state: string): number => Number(counts.find((c) => c.state === state)?.n ?? 0)
  return {
    items: rows.map((row) => ({
      asset_id: row.asset_id,
      kind: row.kind,
      state: row.state === 'pending' ? 'queued' : 'running',
      queue_position: row.state === 'pending' ? Number(row.position) : null,
      attempts: Number(row.attempts),
      queued_at: apiTime(row.created_at) as string,
      started_at: row.state === 'running' ? apiTime(row.started_at ?? null) : null
    })),
    waiting: count('pending'),
    running: count('running')
  }
}

/** `GET /v2/processing_queue` (administrators): the account's waiting and running media jobs. */
export const processingQueueRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<DB> }> = async (app, { db }) => {
  app.get('/v2/processing_queue', {
    config: { permission: ['processing_queue', 'read'] as const },
    schema: {
      operationId: 'getProcessingQueue',
      summary: 'List the account\'s waiting and running media jobs',
      description: 'Administrators only. The account\'s media jobs that wait for a worker, each with its place in the queue every account shares, and those running; with the whole queue\'s counts.',
      tags: ['assets'],
      querystring: ProcessingQueueQuery,
      response: { 200: ProcessingQueue, ...SignedErrors }
    }
  }, async (req) => await processingQueue(db, callerOf(req), req.query))
}
