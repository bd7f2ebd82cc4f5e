import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { ROOT } from '../support/cli.ts'

// Processes starting together on a new data directory each migrate the same SQLite file. Each child
// loads the code, then waits for a common moment so that their migrations overlap.
const PROCESSES = 3

const child = `
  const { migrateToLatest, openDatabase } = await import('./src/db/index.ts')
  const database = await openDatabase(process.env.PROBE_DATABASE)
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(process.env.PROBE_AT) - Date.now())))
  await migrateToLatest(database.db)
  await database.close()
`

describe('migrations of several processes starting together on one SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reelhouse-migrate-together-'))
  after(() => { rmSync(dir, { recursive: true, force: true }) })

  it('applies them once, every process starting', async () => {
    const env = { ...process.env, PROBE_DATABASE: `sqlite:${join(dir, 'reelhouse.db')}`, PROBE_AT: String(Date.now() + 4000) }
    const runs = Array.from({ length: PROCESSES }, async () => {
      const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { cwd: ROOT, env })
      let stderr = ''
      proc.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
      const [code] = await once(proc, 'close') as [number | null]
      return { code, stderr }
    })
    const failed = (await Promise.all(runs)).filter((run) => run.code !== 0)
    assert.deepEqual(failed.map((run) => run.stderr.split('\n').find((line) => line.includes('Error')) ?? run.stderr), [])
  })
})
