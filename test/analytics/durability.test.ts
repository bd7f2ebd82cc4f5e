import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { appendFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { once } from 'node:events'
import { after, afterEach, describe, it } from 'node:test'
import { openAnalyticsStore } from '../../src/analytics/index.ts'
import { openTestAnalytics, storedCount, STORES, type TestAnalytics } from './support/harness.ts'

const CHILD = join(import.meta.dirname, 'support', 'ingest-child.ts')
const DAY = { start_date: '2026-11-22', end_date: '2026-11-23', metrics: 'displays' }

/** Runs the child until it has accepted its batches, then SIGKILLs it at once. */
async function acceptThenKill (t: TestAnalytics): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, t.dir, t.url ?? '-', t.pgSchema ?? '-'], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString()
      if (out.includes('accepted\n')) { child.kill('SIGKILL'); resolve() }
    })
    child.on('exit', (code) => { reject(new Error(`the child exited (${code}) before accepting: ${out}`)) })
  })
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit')
  assert.equal(child.signalCode, 'SIGKILL')
}

for (const store of STORES) {
  describe(`durability on ${store.name}`, { skip: store.skip }, () => {
    let t: TestAnalytics | undefined
    afterEach(async () => { await t?.close(); t = undefined })
    after(async () => { await t?.close() })

    it('keeps a batch accepted the moment before kill -9, and replays it once on the next start', async () => {
      t = await openTestAnalytics(store.name)
      await t.stop() // the child owns the store (DuckDB allows one process) until it dies
      await acceptThenKill(t)

      // Before any replay the store holds only the first, flushed batch.
      const raw = await openAnalyticsStore(t.url, { dataDir: t.dir, pgSchema: t.pgSchema })
      assert.equal(Number((await raw.query('SELECT COUNT(*) AS n FROM analytics_events', []))[0].n), 3)
      await raw.close()
      // A write cut short by a crash (never acknowledged) leaves a torn line at the end: it is skipped.
      const spool = join(t.dir, 'analytics-spool')
      const segments = (): string[] => readdirSync(spool).filter((f) => f.startsWith('segment-')).sort()
      appendFileSync(join(spool, segments().at(-1) ?? assert.fail('no spool segment')), '0badc0de {"id":"torn","rows":[[')

      const errors: unknown[] = []
      const analytics = await t.reopen({ ingest: { flushIntervalMs: 60_000, onError: (e) => errors.push(e) } })
      assert.deepEqual((await analytics.report('acc-a', DAY)).results[0].data, [{ group: {}, metrics: { displays: 8 } }])
      assert.match(String(errors[0]), /skipped 1 damaged record/)
      // Everything in the spool is applied: a clean close leaves no segment, and a restart adds nothing.
      await t.stop()
      assert.deepEqual(segments(), [])
      await t.reopen()
      assert.equal(await storedCount(t.analytics), 8)
    })
  })
}
