import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isProcessAlive } from '../lib/process-alive.ts'

/** The lock file, in the data directory: the pid of the process that owns the embedded analytics store. */
export const LOCK_FILE = 'reelhouse.pid'

/** Another live process holds the data directory's lock. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError'
  constructor (readonly pid: number) {
    super(`Reelhouse is already running on this data directory (pid ${pid})`)
  }
}

export interface DataDirLock {
  readonly file: string
  /** Removes the lock file if it still names this process. */
  release: () => void
}

const heldHere = new Set<string>()

/**
 * Takes the data directory's lock for this process. Several processes may share a data directory (the
 * SQLite database allows it); the embedded DuckDB analytics file admits one, and DuckDB's own refusal
 * is an opaque "could not set lock" error, so the process that opens it takes this lock first and a
 * second one is told plainly who holds it (docs/configuration.md, "The data directory").
 *
 * The file appears whole or not at all (written aside, then hard-linked into place, which fails when
 * it exists). A lock whose process is gone is stale and taken over; one with this process's own pid
 * that this process did not take is a previous incarnation's (pid 1 in a container). Two processes
 * taking over the same stale lock in the same instant could both succeed; DuckDB's own lock still
 * stops the second one.
 */
export function acquireDataDirLock (dataDir: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE)
  if (heldHere.has(file)) throw new DataDirLockedError(process.pid)
  mkdirSync(dataDir, { recursive: true })
  const aside = `${file}.${process.pid}.tmp`
  writeFileSync(aside, `${process.pid}\n`)
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(aside, file)
        heldHere.add(file)
        return { file, release: () => { release(file) } }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      const holder = pidIn(file)
      if (holder !== undefined && holder !== process.pid && isProcessAlive(holder)) throw new DataDirLockedError(holder)
      rmSync(file, { force: true })
    }
    throw new Error(`could not take ${file}: other processes keep replacing it`)
  } finally {
    rmSync(aside, { force: true })
  }
}

function release (file: string): void {
  if (!heldHere.delete(file)) return
  if (pidIn(file) === process.pid) unlinkSync(file)
}

/** The pid the file names; undefined when it is gone or holds anything else. */
function pidIn (file: string): number | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8').trim()
  } catch {
    return undefined
  }
  const pid = /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
}
