import type { Kysely } from 'kysely'
import type { DB } from '../../db/tables/index.ts'
import { apiTime } from '../../lib/clock.ts'
import type { ApiProcessing } from '../../resources/assets/index.ts'
import type { ProbeResult } from '../processing/index.ts'
import type { StreamState } from './asset-media-port.ts'
import type { MediaVersionRow } from './media-versions-repository.ts'

/** Where an asset's latest media job stands (`processing` on the asset and in `GET /v2/assets/:id/streams`). */
export type JobStanding = ApiProcessing

/** How much of the media a rendition holds so far, 0–100 (100 once ready). */
export function renditionPercent (stream: StreamState, sourceMs: number): number {
  if (stream.state === 'ready') return 100
  return sourceMs > 0 && stream.duration_ms !== null ? Math.min(99, Math.floor(100 * stream.duration_ms / sourceMs)) : 0
}

/** Each rendition of the version, lowest first: its state, whether players may choose it, its percent. */
function renditionsOf (version: MediaVersionRow | undefined): JobStanding['renditions'] {
  if (version === undefined) return []
  const sourceMs = version.probe === null ? 0 : (JSON.parse(version.probe) as ProbeResult).durationMs
  return (JSON.parse(version.renditions) as StreamState[]).map((s) => ({
    name: s.name, state: s.state, playable: s.state !== 'failed' && (s.in_master ?? s.state === 'ready'), percent: renditionPercent(s, sourceMs)
  }))
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
    return { state: 'queued', queue_position: Number(ahead.n) + 1, started_at: null, estimated_seconds_left: null, renditions: [] }
  }
  if (job.state !== 'running') {
    return { state: job.state === 'done' ? 'done' : 'failed', queue_position: null, started_at: null, estimated_seconds_left: null, renditions: job.state === 'done' ? renditionsOf(version) : [] }
  }
  const making = version?.state === 'processing' || version?.state === 'current' ? version : undefined
  const startedAt = apiTime(making?.created_at ?? null)
  let left: number | null = null
  if (making !== undefined && making.progress > 5 && making.progress < 100) {
    const elapsed = Math.max(0, nowMs - Date.parse(making.created_at)) / 1000
    left = Math.round(elapsed * (100 - making.progress) / (making.progress - 5))
  }
  return { state: 'running', queue_position: null, started_at: startedAt, estimated_seconds_left: left, renditions: renditionsOf(making) }
}
