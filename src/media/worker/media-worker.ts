import { mkdir, readdir, rm } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { MediaTools } from '../processing/index.ts'
import { assetPrefix, type MediaStore } from '../store/index.ts'
import { createJobQueue, type MediaJobRow } from './job-queue.ts'
import type { MediaAssets, MediaJobRef } from '../asset-state/index.ts'
import { MediaWorkerMetrics } from './media-worker-metrics.ts'
import { processJob, removeVersions } from './process-job.ts'
import { isProcessAlive } from '../../lib/process-alive.ts'
import { isDatabaseBusy, type Database } from '../../db/index.ts'
import { runCaptionsJob, type CaptionEngineChoice, type GeneratedCaptionsSink } from '../captions/index.ts'

export interface MediaWorkerDeps {
  database: Database
  store: MediaStore
  tools: MediaTools
  assets: MediaAssets
  /** Each worker process works in `<workDir>/<its owner id>/`; folders of dead workers on this host are removed at start. */
  workDir: string
  /** Generated captions: the engine chosen at start and where its tracks go; without it `captions` jobs fail. */
  captions?: { engine: CaptionEngineChoice, sink: GeneratedCaptionsSink }
}

export interface MediaWorkerLogger {
  info: (obj: object, msg: string) => void
  warn: (obj: object, msg: string) => void
  error: (obj: object, msg: string) => void
}

export interface MediaWorkerOptions {
  logger?: MediaWorkerLogger
  /** How long a taken job stays this worker's without a renewal (default 60 s); renewed every third of it. */
  leaseMs?: number
  /** Wait between looks at an empty queue (default 1 s). */
  pollMs?: number
  /** Attempts before a job fails for good (default 3): a job that kills its worker every time stops being retried. */
  maxAttempts?: number
  /** How long a replaced version's files stay for players in the middle of them (default 6 h). */
  retireAfterMs?: number
  /** Test only: the encoding run reads its input at this percentage of real time; 0 (default) is off. */
  pacingPercent?: number
  /** Jobs run at once by this worker (MEDIA_WORKER_CONCURRENCY; default 1), each with its own lease and ffmpeg runs. */
  concurrency?: number
}

export interface MediaWorker {
  readonly owner: string
  readonly metrics: MediaWorkerMetrics
  /** Stops taking jobs and aborts the running one (it goes back to the queue); resolves when idle. */
  stop: () => Promise<void>
}

/** How a round of the worker's loop ended: the queue was empty, a job was taken, or a trouble of ours interrupted it. */
type Round = 'idle' | 'worked' | 'trouble'

/** Rows the sweep takes at a time. */
const SWEEP_BATCH = 20

/** The reason a person sees when processing failed for reasons that are not the file's. */
export const GAVE_UP_REASON = 'Processing failed several times for a reason on our side, not in the file; upload it again, or ask the operator to look at the worker\'s log.'

/**
 * Runs up to `concurrency` media jobs at once, each in a loop of its own that takes the next job when it
 * is done (so a short or standard input is not stuck behind one long encode; several worker processes
 * share the queue too). Each job is taken with a lease that is renewed while it runs; losing the lease aborts the job
 * (another worker has it). Jobs whose worker died are taken again once their lease ends.
 */
export async function startMediaWorker (deps: MediaWorkerDeps, options: MediaWorkerOptions = {}): Promise<MediaWorker> {
  const leaseMs = options.leaseMs ?? 60_000
  const pollMs = options.pollMs ?? 1000
  const maxAttempts = options.maxAttempts ?? 3
  const retireAfterMs = options.retireAfterMs ?? 6 * 60 * 60 * 1000
  // Looked for between jobs, at most once a minute, and often enough for a short retirement.
  const sweepEveryMs = Math.min(60_000, Math.max(pollMs, retireAfterMs / 4))
  let lastSweep = 0
  const logger = options.logger
  const queue = createJobQueue(deps.database.db, deps.database.dialect)
  const metrics = new MediaWorkerMetrics(queue)
  const host = hostname().replace(/[^A-Za-z0-9_-]/g, '_')
  const owner = `${host}-${process.pid}-${randomBytes(4).toString('hex')}`
  await removeDeadWorkDirs(deps.workDir, host)
  const scratchDir = join(deps.workDir, owner)
  await mkdir(scratchDir, { recursive: true })

  let stopping = false
  const running = new Set<AbortController>()
  const wakers = new Set<() => void>()
  const iso = (ms: number): string => new Date(ms).toISOString()
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1))

  const loops = Array.from({ length: concurrency }, async () => {
    // Rounds in a row that ended on a trouble of ours (the database busy past its timeout, or away):
    // each waits longer before the next. No such error ends the worker: it is logged and waited out.
    let troubles = 0
    while (!stopping) {
      let outcome: Round
      try {
        outcome = await round()
      } catch (error) {
        logger?.error({ err: error }, 'media worker: a queue operation failed; trying again after a pause')
        outcome = 'trouble'
      }
      troubles = outcome === 'trouble' ? troubles + 1 : 0
      if (outcome === 'idle') await pause(pollMs)
      else if (outcome === 'trouble') await pause(Math.min(30_000, Math.max(pollMs, 250) * 2 ** Math.min(troubles - 1, 7)))
    }
  })

  /** Waits `ms`, or less if the worker is stopped or woken meanwhile. */
  async function pause (ms: number): Promise<void> {
    if (stopping) return
    await new Promise<void>((resolve) => {
      const wake = (): void => { clearTimeout(timer); wakers.delete(wake); resolve() }
      const timer = setTimeout(wake, ms)
      wakers.add(wake)
    })
  }

  /** Takes a job and runs it, or sweeps when there is none. */
  async function round (): Promise<Round> {
    const job = await queue.claim(owner, iso(Date.now()), iso(Date.now() + leaseMs))
    if (job !== undefined) return await run(job)
    if (Date.now() - lastSweep >= sweepEveryMs) {
      lastSweep = Date.now()
      await sweep().catch((error: unknown) => { logger?.error({ err: error }, 'media worker: could not sweep media') })
    }
    return 'idle'
  }

  /**
   * Removes what nobody else will: the media of assets deleted more than a minute ago by a process that
   * died before removing it, and the files of versions replaced more than `retireAfterMs` ago.
   */
  async function sweep (): Promise<void> {
    await inBatches(async () => await deps.assets.deletedWithMedia(iso(Date.now() - 60_000), SWEEP_BATCH), async ({ accountId, assetId }) => {
      await deps.store.deletePrefix(assetPrefix(accountId, assetId))
      await deps.assets.markMediaRemoved(accountId, assetId)
      metrics.removedDeleted += 1
    })
    await inBatches(async () => await deps.assets.retiredBefore(iso(Date.now() - retireAfterMs), SWEEP_BATCH), async ({ accountId, assetId, version }) => {
      await removeVersions({ store: deps.store, assets: deps.assets }, { accountId, assetId }, [version])
      metrics.retired += 1
    })
  }

  /** Removes what `next` names, a batch at a time, until a batch comes back short or the worker stops. */
  async function inBatches<T> (next: () => Promise<T[]>, remove: (item: T) => Promise<void>): Promise<void> {
    for (;;) {
      const batch = await next()
      for (const item of batch) await remove(item)
      if (batch.length < SWEEP_BATCH || stopping) return
    }
  }

  async function run (job: MediaJobRow): Promise<Round> {
    metrics.taken += 1
    if (job.kind === 'captions') return await runCaptions(job)
    const ref: MediaJobRef = { accountId: job.account_id, assetId: job.asset_id, jobId: job.id, kind: job.kind, originalKey: job.original_key }
    const log = { job: job.id, asset: job.asset_id, account: job.account_id, attempt: job.attempts }
    if (job.attempts > maxAttempts) {
      // Taken again after its worker died mid-job, each time: stop retrying it.
      await deps.assets.fail(ref, null, GAVE_UP_REASON)
      await queue.settle(job.id, owner, iso(Date.now()), { state: 'failed', error: `gave up after ${maxAttempts} attempts` })
      metrics.failed += 1
      logger?.warn(log, 'media job failed: attempts ran out')
      return 'worked'
    }
    const controller = new AbortController()
    let leaseLost = false
    running.add(controller)
    const renewal = setInterval(() => {
      queue.renew(job.id, owner, iso(Date.now()), iso(Date.now() + leaseMs)).then((mine) => {
        if (mine) return
        leaseLost = true
        controller.abort(new Error('the job\'s lease was lost'))
      }, (error: unknown) => { logger?.warn({ ...log, err: error }, 'media worker: could not renew a lease') })
    }, Math.max(100, Math.floor(leaseMs / 3)))
    const started = performance.now()
    try {
      logger?.info(log, 'media job started')
      const outcome = await processJob({ store: deps.store, tools: deps.tools, assets: deps.assets, scratchDir, pacingPercent: options.pacingPercent ?? 0 }, ref, controller.signal)
      if (outcome.kind === 'rejected') {
        await queue.settle(job.id, owner, iso(Date.now()), { state: 'failed', error: outcome.reason })
        metrics.rejected += 1
        logger?.info({ ...log, reason: outcome.reason }, 'media job rejected the file')
      } else {
        await queue.settle(job.id, owner, iso(Date.now()), { state: 'done' })
        metrics.done += 1
        metrics.lastJobSeconds = (performance.now() - started) / 1000
        logger?.info({ ...log, seconds: metrics.lastJobSeconds }, 'media job done')
      }
      return 'worked'
    } catch (error) {
      if (controller.signal.aborted) {
        // Stopping, or another worker has the job: whoever holds it finishes it. Neither is the job's
        // fault, so neither counts against its attempts.
        logger?.warn({ ...log, reason: String(controller.signal.reason) }, 'media job stopped; it stays in the queue')
        if (leaseLost) await queue.forgive(job.id, iso(Date.now()))
        else if (stopping) await queue.release(job.id, owner, iso(Date.now()), 'the worker stopped')
        return 'worked'
      }
      if (isDatabaseBusy(error)) {
        // Other writers held the database past its busy timeout: contention of ours, not the job's.
        logger?.warn({ ...log, err: error }, 'media job interrupted: the database is busy; it goes back to the queue')
        await queue.release(job.id, owner, iso(Date.now()), 'the database was busy')
        metrics.retried += 1
        return 'trouble'
      }
      const detail = (error as { detail?: string }).detail
      logger?.error({ ...log, err: error, detail }, 'media job failed')
      if (job.attempts >= maxAttempts) {
        await deps.assets.fail(ref, null, GAVE_UP_REASON)
        await queue.settle(job.id, owner, iso(Date.now()), { state: 'failed', error: (error as Error).message })
        metrics.failed += 1
      } else {
        await queue.settle(job.id, owner, iso(Date.now()), { state: 'pending', error: (error as Error).message })
        metrics.retried += 1
      }
      return 'worked'
    } finally {
      clearInterval(renewal)
      running.delete(controller)
    }
  }

  /**
   * A `captions` job: the engine over the asset's original, the cues stored as a generated track. The
   * asset's media is untouched, so a failure only settles the job (retried like any other).
   */
  async function runCaptions (job: MediaJobRow): Promise<Round> {
    const log = { job: job.id, asset: job.asset_id, account: job.account_id, attempt: job.attempts, language: job.language }
    const controller = new AbortController()
    running.add(controller)
    try {
      const captions = deps.captions
      if (captions === undefined || captions.engine.name === 'off') throw new Error(captions?.engine.name === 'off' ? captions.engine.reason : 'generated captions are off in this worker')
      const cues = await runCaptionsJob({ store: deps.store, tools: deps.tools, engine: captions.engine, sink: captions.sink, scratchDir }, {
        accountId: job.account_id, assetId: job.asset_id, language: job.language ?? 'en', originalKey: job.original_key
      }, controller.signal)
      await queue.settle(job.id, owner, iso(Date.now()), { state: 'done' })
      metrics.done += 1
      logger?.info({ ...log, cues }, 'captions job done')
      return 'worked'
    } catch (error) {
      if (stopping) {
        await queue.release(job.id, owner, iso(Date.now()), 'the worker stopped')
        return 'worked'
      }
      logger?.error({ ...log, err: error }, 'captions job failed')
      const final = job.attempts >= maxAttempts
      await queue.settle(job.id, owner, iso(Date.now()), { state: final ? 'failed' : 'pending', error: (error as Error).message })
      if (final) metrics.failed += 1
      else metrics.retried += 1
      return 'worked'
    } finally {
      running.delete(controller)
    }
  }

  return {
    owner,
    metrics,
    stop: async () => {
      stopping = true
      for (const controller of running) controller.abort(new Error('the worker is stopping'))
      for (const wake of [...wakers]) wake()
      await Promise.all(loops)
      await rm(scratchDir, { recursive: true, force: true })
    }
  }
}

/** Work folders of workers on this host whose process is gone (killed mid-job): their job is retried elsewhere. */
async function removeDeadWorkDirs (workDir: string, host: string): Promise<void> {
  await mkdir(workDir, { recursive: true })
  for (const name of await readdir(workDir)) {
    const match = new RegExp(`^${host}-(\\d+)-[0-9a-f]+$`).exec(name)
    if (match === null || isProcessAlive(Number(match[1]))) continue
    await rm(join(workDir, name), { recursive: true, force: true })
  }
}
