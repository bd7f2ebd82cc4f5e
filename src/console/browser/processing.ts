import type { Asset } from 'reelhouse/client'
import type { Session } from './shell.ts'

const POLL_MS = 1500

/** The asset's processing progress, 0–100 (a field of processed media types). */
export function progressOf (asset: Asset): number {
  const value = (asset as Asset & { processing_progress?: number }).processing_progress
  return typeof value === 'number' ? value : (asset.status === 'live' || asset.status === 'paused' ? 100 : 0)
}

/** Asks for the asset until it leaves `uploading` and `processing`, reporting its progress; resolves with it. */
export async function followProcessing (session: Session, id: string, onProgress: (progress: number, asset: Asset) => void): Promise<Asset> {
  for (;;) {
    const asset = await session.client.assets.get(id)
    onProgress(progressOf(asset), asset)
    if (asset.status !== 'processing' && asset.status !== 'uploading') return asset
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}
