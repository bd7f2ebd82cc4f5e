import type { Kysely } from 'kysely'
import type { DB } from '../../db/tables/index.ts'
import { apiTime } from '../../lib/clock.ts'
import type { MediaVersionRow } from './media-versions-repository.ts'

/** Where an asset's latest media job stands (`processing` in `GET /v2/assets/:id/streams`). */
export interface JobStanding {
  state: 'queued' | 'running' | 'done' | 'failed'
  queue_position: number | null
  started_at: string | null
  estimated_seconds_left: number | null
}

/**
 * The asset's latest job and, while it waits, its place among every account's waiting jobs in the
 * order workers take them (oldest first): the queue is shared, so the place is too. The running
 * attempt's start is its version's creation; the time left is extrapolated from the progress made
 * since then (5 points are the probe and preview).
 */
export async function jobStanding (db: Kysely<DB>, accountId: string, assetId: string, version: MediaVersionRow | undefined, nowMs: number): Promise<JobStanding | null> {
  const job = await db.selectFrom('media_jobs').select(['id', 'state', 'created_at'])
    .where('account_id', '=', accountId).where('asset_id', '=', assetId)
    .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst()
  if (job === undefined) return null
  if (job.state === 'pending') {
    const ahead = await db.selectFrom('media_jobs').select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('state', '=', 'pending')
      .where((eb) => eb.or([eb('created_at', '<', job.created_at), eb.and([eb('created_at', '=', job.created_at), eb('id', '<', job.id)])]))
      .executeTakeFirstOrThrow()
    return { state: 'queued', queue_position: Number(ahead.n) + 1, started_at: null, estimated_seconds_left: null }
  }
  if (job.state !== 'running') return { state: job.state === 'done' ? 'done' : 'failed', queue_position: null, started_at: null, estimated_seconds_left: null }
  const making = version?.state === 'processing' || version?.state === 'current' ? version : undefined
  const startedAt = apiTime(making?.created_at ?? null)
  let left: number | null = null
  if (making !== undefined && making.progress > 5 && making.progress < 100) {
    const elapsed = Math.max(0, nowMs - Date.parse(making.created_at)) / 1000
    left = Math.round(elapsed * (100 - making.progress) / (making.progress - 5))
  }
  return { state: 'running', queue_position: null, started_at: startedAt, estimated_seconds_left: left }
}
