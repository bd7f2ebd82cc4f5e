import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isProcessAlive } from '../lib/process-alive.ts'

/**
 * `server.json` in the data directory: where the process serving the `api` role answers, so that
 * `reelhouse get …` run beside it finds it whatever port it took (docs/cli.md, "The server's address").
 * Written once the listeners are up, removed when the process stops; a file left by a process that is
 * gone (a crash, a kill -9) is recognised by its pid and ignored.
 */
export const RUNNING_SERVER_FILE = 'server.json'

export interface RunningServerRecord {
  pid: number
  /** The address the API answers at from this machine: its listener, or PUBLIC_API_URL behind a proxy. */
  api_url: string
  /** The cached variant's address, when this process serves the `cdn` role too. */
  cdn_url?: string
  public_api_url: string
  public_cdn_url: string
  started_at: string
}

/** Records this process's addresses (a temporary file renamed into place: readers never see half). */
export function recordRunningServer (dataDir: string, record: Omit<RunningServerRecord, 'pid' | 'started_at'>): () => void {
  const file = join(dataDir, RUNNING_SERVER_FILE)
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify({ pid: process.pid, ...record, started_at: new Date().toISOString() }, null, 2) + '\n')
  renameSync(temporary, file)
  return () => {
    // Another process on the same data directory may have recorded itself since: its file stays.
    if (readRunningServer(dataDir, { alive: false })?.pid === process.pid) rmSync(file, { force: true })
  }
}

/** The record of a server running on this machine from this data directory, if there is one. */
export function readRunningServer (dataDir: string, options = { alive: true }): RunningServerRecord | undefined {
  let record: Partial<RunningServerRecord>
  try {
    record = JSON.parse(readFileSync(join(dataDir, RUNNING_SERVER_FILE), 'utf8')) as Partial<RunningServerRecord>
  } catch {
    return undefined // none, or unreadable: as if no server ran
  }
  if (typeof record.pid !== 'number' || typeof record.api_url !== 'string') return undefined
  if (options.alive && !isProcessAlive(record.pid)) return undefined
  return record as RunningServerRecord
}
