import { rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Rendition } from './processing-types.ts'

/** A variant of the master playlist: where its media playlist is and what it carries. */
export interface MasterEntry {
  /** Relative to the master's folder, e.g. `720p/index.m3u8`. */
  uri: string
  bandwidth: number
  averageBandwidth: number
  rendition: Pick<Rendition, 'codecs' | 'width' | 'height'>
}

export const MASTER_PLAYLIST_FILE = 'master.m3u8'

/**
 * The master playlist of the renditions published so far, lowest first (players that start with the
 * first variant start fast). BANDWIDTH is the measured peak, AVERAGE-BANDWIDTH the measured mean,
 * CODECS and RESOLUTION what the rendition was encoded with. Rewrite it as each rendition finishes.
 */
export function masterPlaylist (renditions: MasterEntry[]): string {
  if (renditions.length === 0) throw new Error('a master playlist needs at least one finished rendition')
  const sorted = [...renditions].sort((a, b) => a.bandwidth - b.bandwidth)
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS']
  for (const output of sorted) {
    const { rendition } = output
    const attributes = [
      `BANDWIDTH=${output.bandwidth}`,
      `AVERAGE-BANDWIDTH=${output.averageBandwidth}`,
      `CODECS="${rendition.codecs}"`,
      ...(rendition.width !== null && rendition.height !== null ? [`RESOLUTION=${rendition.width}x${rendition.height}`] : [])
    ]
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, output.uri)
  }
  return lines.join('\n') + '\n'
}

/** Writes `<outDir>/master.m3u8` through a rename, so a reader never sees half a playlist. */
export async function writeMasterPlaylist (outDir: string, renditions: MasterEntry[]): Promise<string> {
  const file = join(outDir, MASTER_PLAYLIST_FILE)
  const temporary = `${file}.${process.pid}.tmp`
  await writeFile(temporary, masterPlaylist(renditions))
  await rename(temporary, file)
  return file
}
