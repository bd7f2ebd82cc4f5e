import type { ExpressionBuilder, Kysely } from 'kysely'
import type { DB, MediaJobsTable } from '../../db/tables/index.ts'

export type MediaJobRow = Omit<MediaJobsTable, 'attempts'> & { attempts: number }

/**
 * The media job queue in the database (the `media_jobs` table). A worker takes a job with a lease: an
 * UPDATE guarded on the state and the lease's end, so of several workers exactly one wins a job; it
 * renews the lease while it works, and a job whose lease ran out (its worker was killed) is taken again.
 * Jobs are not per account: a worker serves every tenant, and each job names its account. On PostgreSQL
 * the candidate is chosen with `FOR UPDATE SKIP LOCKED` inside the UPDATE, so workers claiming at once
 * each get a different job instead of racing for the oldest one.
 */
export function createJobQueue (db: Kysely<DB>, dialect: 'sqlite' | 'postgres' = 'sqlite') {
  const takeable = (now: string) => (eb: ExpressionBuilder<DB, 'media_jobs'>) => eb.or([
    eb('state', '=', 'pending'),
    eb.and([eb('state', '=', 'running'), eb('lease_until', '<', now)])
  ])
  return {
    /** Takes the oldest takeable job for `owner` until `leaseUntil`, counting the attempt; undefined when none. */
    async claim (owner: string, now: string, leaseUntil: string): Promise<MediaJobRow | undefined> {
      if (dialect === 'postgres') {
        // A dialect branch, named as such: the row another worker is claiming is skipped, not waited for.
        const row = await db.updateTable('media_jobs')
          .set((eb) => ({ state: 'running', lease_owner: owner, lease_until: leaseUntil, attempts: eb('attempts', '+', 1), updated_at: now }))
          .where('id', '=', (eb) => eb.selectFrom('media_jobs').select('id').where(takeable(now))
            .orderBy('created_at').orderBy('id').limit(1).forUpdate().skipLocked())
          .where(takeable(now)).returningAll().executeTakeFirst()
        return row === undefined ? undefined : { ...row, attempts: Number(row.attempts) }
      }
      for (let tries = 0; tries < 5; tries++) {
        const candidate = await db.selectFrom('media_jobs').select('id').where(takeable(now))
          .orderBy('created_at').orderBy('id').limit(1).executeTakeFirst()
        if (candidate === undefined) return undefined
        const result = await db.updateTable('media_jobs')
          .set((eb) => ({ state: 'running', lease_owner: owner, lease_until: leaseUntil, attempts: eb('attempts', '+', 1), updated_at: now }))
          .where('id', '=', candidate.id).where(takeable(now)).executeTakeFirst()
        if (Number(result.numUpdatedRows) === 1) {
          const row = await db.selectFrom('media_jobs').selectAll().where('id', '=', candidate.id).executeTakeFirstOrThrow()
          return { ...row, attempts: Number(row.attempts) }
        }
        // Another worker took it between the two statements: look again.
      }
      return undefined
    },
    /** Extends the lease; false when the job is no longer this owner's (its lease ran out and another took it). */
    async renew (jobId: string, owner: string, now: string, leaseUntil: string): Promise<boolean> {
      const result = await db.updateTable('media_jobs').set({ lease_until: leaseUntil, updated_at: now })
        .where('id', '=', jobId).where('lease_owner', '=', owner).where('state', '=', 'running').executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },
    /** Ends the job: `done`, `failed` with a reason, or back to `pending` for another attempt. */
    async settle (jobId: string, owner: string, now: string, outcome: { state: 'done' | 'failed' | 'pending', error?: string }): Promise<void> {
      await db.updateTable('media_jobs').set({ state: outcome.state, error: outcome.error ?? null, lease_owner: null, lease_until: null, updated_at: now })
        .where('id', '=', jobId).where('lease_owner', '=', owner).execute()
    },
    /**
     * Gives the job back without counting the attempt: it ended for a reason of ours (the worker stopping,
     * the database busy with other writers), not the job's.
     */
    async release (jobId: string, owner: string, now: string, reason: string): Promise<void> {
      await db.updateTable('media_jobs')
        .set((eb) => ({ state: 'pending', error: reason, lease_owner: null, lease_until: null, attempts: eb('attempts', '-', 1), updated_at: now }))
        .where('id', '=', jobId).where('lease_owner', '=', owner).execute()
    },
    /**
     * Uncounts the attempt of a worker that lost the job's lease while alive (its renewals could not get
     * through): the worker that took the job over counted its own.
     */
    async forgive (jobId: string, now: string): Promise<void> {
      await db.updateTable('media_jobs').set((eb) => ({ attempts: eb('attempts', '-', 1), updated_at: now }))
        .where('id', '=', jobId).where('attempts', '>', 0).execute()
    },
    /** Jobs waiting or running: the queue depth the metrics report. */
    async depth (): Promise<{ pending: number, running: number }> {
      const rows = await db.selectFrom('media_jobs').select((eb) => ['state', eb.fn.countAll<number | string>().as('n')])
        .where('state', 'in', ['pending', 'running']).groupBy('state').execute()
      const count = (state: string): number => Number(rows.find((r) => r.state === state)?.n ?? 0)
      return { pending: count('pending'), running: count('running') }
    }
  }
}

export type JobQueue = ReturnType<typeof createJobQueue>
