import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE } from '../../src/server/data-dir-lock.ts'

/** A real process that stays alive until killed, and one that has already exited: their pids. */
async function liveProcess (): Promise<{ pid: number, kill: () => Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  await once(child, 'spawn')
  return { pid: child.pid as number, kill: async () => { const gone = once(child, 'exit'); child.kill('SIGKILL'); await gone } }
}
async function deadPid (): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await once(child, 'exit')
  return child.pid as number
}

describe('the data directory lock', () => {
  let dataDir: string
  let file: string
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-lock-'))
    file = join(dataDir, LOCK_FILE)
  })
  afterEach(() => { rmSync(dataDir, { recursive: true, force: true }) })

  it('writes this process\'s pid, and release removes it', () => {
    const lock = acquireDataDirLock(dataDir)
    assert.equal(readFileSync(file, 'utf8').trim(), String(process.pid))
    lock.release()
    assert.equal(existsSync(file), false)
  })

  it('refuses while another live process holds it, naming its pid, and leaves its file alone', async () => {
    const other = await liveProcess()
    try {
      writeFileSync(file, `${other.pid}\n`)
      assert.throws(() => acquireDataDirLock(dataDir), (error: unknown) => {
        assert.ok(error instanceof DataDirLockedError)
        assert.equal(error.message, `Reelhouse is already running on this data directory (pid ${other.pid})`)
        return true
      })
      assert.equal(readFileSync(file, 'utf8').trim(), String(other.pid))
    } finally {
      await other.kill()
    }
  })

  it('takes over a lock whose process is gone', async () => {
    writeFileSync(file, `${await deadPid()}\n`)
    const lock = acquireDataDirLock(dataDir)
    assert.equal(readFileSync(file, 'utf8').trim(), String(process.pid))
    lock.release()
  })

  it('takes over a lock file that holds no pid', () => {
    writeFileSync(file, 'not a pid')
    const lock = acquireDataDirLock(dataDir)
    assert.equal(readFileSync(file, 'utf8').trim(), String(process.pid))
    lock.release()
  })

  it('refuses a second lock in the same process', () => {
    const lock = acquireDataDirLock(dataDir)
    try {
      assert.throws(() => acquireDataDirLock(dataDir), DataDirLockedError)
    } finally {
      lock.release()
    }
  })

  it('does not remove a lock that another process took after this one let go', async () => {
    const lock = acquireDataDirLock(dataDir)
    const other = await liveProcess()
    try {
      writeFileSync(file, `${other.pid}\n`)
      lock.release()
      assert.equal(readFileSync(file, 'utf8').trim(), String(other.pid))
    } finally {
      await other.kill()
    }
  })
})
