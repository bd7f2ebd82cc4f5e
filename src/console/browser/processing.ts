import type { Asset } from 'reelhouse/client'

/** The asset's processing progress, 0–100; 100 for an asset that needs none. */
export function progressOf (asset: Asset): number {
  return asset.processing_progress ?? (asset.status === 'live' || asset.status === 'paused' ? 100 : 0)
}
