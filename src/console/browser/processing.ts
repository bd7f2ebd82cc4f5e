import type { Asset } from 'reelhouse/client'

/** The asset's processing progress, 0–100; 100 for an asset that needs none. */
export function progressOf (asset: Asset): number {
  return asset.processing_progress ?? (asset.status === 'live' || asset.status === 'paused' ? 100 : 0)
}

/**
 * What the asset's `processing` object says of its job, when the server sends one (a queue position
 * while it waits, each rendition's state, the time left); older servers send none, and the status and
 * progress say the rest.
 */
interface QueueState {
  state?: string
  position?: number
  queue_position?: number | null
  estimated_seconds_left?: number | null
  renditions?: Array<{ name: string, state: string, playable: boolean }>
}

function queueOf (asset: Asset): QueueState | undefined {
  const processing = (asset as { processing?: unknown }).processing
  return typeof processing === 'object' && processing !== null ? processing as QueueState : undefined
}

/** "about 40 s", "about 3 min"; empty without an estimate. */
function timeLeft (queue: QueueState | undefined): string {
  const seconds = queue?.estimated_seconds_left
  if (typeof seconds !== 'number') return ''
  return `, about ${seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`}`
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
    const names = (queue?.renditions ?? []).filter((r) => r.state !== 'failed').map((r) => r.name)
    return names.length === 0 ? `Processing ${progress} %${timeLeft(queue)}.` : `Processing ${progress} %: ${names.join(', ')}${timeLeft(queue)}.`
  }
  const renditions = queue?.renditions ?? []
  if (stillEncoding(asset) && renditions.some((r) => r.playable)) {
    const coming = renditions.filter((r) => !r.playable && r.state !== 'failed').map((r) => r.name)
    return `Playable now (${renditions.filter((r) => r.playable).map((r) => r.name).join(', ')})${coming.length === 0 ? '' : `; ${coming.join(', ')} processing`}${timeLeft(queue)}.`
  }
  if (stillEncoding(asset)) return `Playable now; the other renditions are encoding (${progress} %).`
  return ''
}
