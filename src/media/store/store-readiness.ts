import { randomBytes } from 'node:crypto'
import type { MediaStore } from './media-store.ts'

/** Probe objects live here; a leftover one (a process killed mid-check) is harmless and tiny. */
export const READINESS_PREFIX = 'readiness/'

/**
 * A `/ready` check: the store is reachable and writable. It writes a small probe object, reads it back,
 * and deletes it; it answers 'ok' or throws with the store's own error (which names no credentials).
 */
export function mediaStoreReadiness (store: MediaStore): () => Promise<string> {
  return async () => {
    const key = `${READINESS_PREFIX}${randomBytes(8).toString('hex')}`
    const probe = randomBytes(16)
    await store.put(key, probe, { contentType: 'application/octet-stream' })
    try {
      const { body } = await store.get(key)
      const chunks: Buffer[] = []
      for await (const chunk of body) chunks.push(chunk as Buffer)
      if (!Buffer.concat(chunks).equals(probe)) throw new Error(`${store.description} returned other bytes than were written`)
    } finally {
      await store.delete(key)
    }
    return 'ok'
  }
}
