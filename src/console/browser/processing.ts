import type { Asset } from 'reelhouse/client'

/** The asset's processing progress, 0–100; 100 for an asset that needs none. */
export function progressOf (asset: Asset): number {
  return asset.processing_progress ?? (asset.status === 'live' || asset.status === 'paused' ? 100 : 0)
}

/**
 * What the asset's `processing` object says of its job, when the server sends one (a queue position
 * while it waits); older servers send none, and the status and progress say the rest.
 */
interface QueueState { state?: string, position?: number, queue_position?: number | null }

function queueOf (asset: Asset): QueueState | undefined {
  const processing = (asset as { processing?: unknown }).processing
  return typeof processing === 'object' && processing !== null ? processing as QueueState : undefined
}

/** True while the asset plays but its ladder is still being made (more renditions to come). */
export function stillEncoding (asset: Asset): boolean {
  return (asset.status === 'live' || asset.status === 'paused') && asset.processing_progress !== undefined && asset.processing_progress < 100
}

/**
 * One line on where processing stands, the same in the upload panel and on the asset's page: waiting
 * (with its place in the queue when known), processing with its percentage, or playable with the rest
 * of the ladder still encoding.
 */
export function processingText (asset: Asset): string {
  const queue = queueOf(asset)
  const progress = progressOf(asset)
  if (asset.status === 'processing') {
    const position = queue?.queue_position ?? queue?.position
    if (typeof position === 'number') return `Waiting in the queue: position ${position}.`
    if (queue?.state === 'queued' || queue?.state === 'waiting' || (queue === undefined && progress === 0)) return 'Waiting for a worker to start processing.'
    return `Processing ${progress} %.`
  }
  if (stillEncoding(asset)) return `Playable now; the other renditions are encoding (${progress} %).`
  return ''
}
