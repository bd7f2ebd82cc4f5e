import { counter, gauge, type Family } from '../../ops/metrics/index.ts'
import type { JobQueue } from './job-queue.ts'

/** The media worker's figures for `GET /metrics`: its own counters and the queue's depth, read at each scrape. */
export class MediaWorkerMetrics {
  taken = 0
  done = 0
  /** Files that are not media we process (the asset ends `error`). */
  rejected = 0
  /** Jobs that ended `failed` after their attempts ran out. */
  failed = 0
  /** Attempts that failed for reasons not the file's and went back to the queue. */
  retried = 0
  /** Replaced media versions whose files this worker removed once their retirement ended. */
  retired = 0
  /** Deleted assets whose media this worker removed because the deleting process had not. */
  removedDeleted = 0
  lastJobSeconds = 0

  constructor (private readonly queue: Pick<JobQueue, 'depth'>) {}

  async families (): Promise<Family[]> {
    const depth = await this.queue.depth()
    return [
      counter('reelhouse_media_jobs_taken_total', 'Media jobs this worker took (attempts)', this.taken),
      counter('reelhouse_media_jobs_done_total', 'Media jobs this worker finished with playable media', this.done),
      counter('reelhouse_media_jobs_rejected_total', 'Media jobs whose file is not media we process', this.rejected),
      counter('reelhouse_media_jobs_failed_total', 'Media jobs that failed after their attempts ran out', this.failed),
      counter('reelhouse_media_jobs_retried_total', 'Media job attempts that failed and went back to the queue', this.retried),
      counter('reelhouse_media_versions_retired_total', 'Replaced media versions whose files this worker removed after MEDIA_RETIRE_AFTER_SECONDS', this.retired),
      counter('reelhouse_media_deleted_assets_swept_total', 'Deleted assets whose media files this worker removed because the deleting process had not', this.removedDeleted),
      gauge('reelhouse_media_job_last_seconds', 'Wall time of the last job this worker finished', this.lastJobSeconds),
      gauge('reelhouse_media_jobs_pending', 'Media jobs waiting in the queue (all workers)', depth.pending),
      gauge('reelhouse_media_jobs_running', 'Media jobs being processed (all workers)', depth.running)
    ]
  }
}
