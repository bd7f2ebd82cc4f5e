import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { withAccountLock } from '../../../src/db/account-lock.ts'
import { enqueueMediaJob } from '../../../src/media/jobs/index.ts'
import { assetPrefix } from '../../../src/media/store/index.ts'
import { createJobQueue } from '../../../src/media/worker/job-queue.ts'
import { buildTestApp, type Caller, type TestApp } from '../../support/app.ts'
import { databaseBackends } from '../../support/backends.ts'

const at = (second: number): string => new Date(Date.UTC(2026, 10, 27, 12, 0, second)).toISOString()

/** An asset of `owner`'s account whose upload completed: it is processing, with a waiting job. */
async function waitingJob (t: TestApp, owner: Caller, second: number): Promise<string> {
  const created = await t.signed('POST', '/v2/assets', { as: owner, body: { asset_type: 'video', name: 'Clip', file_name: 'clip.mp4', file_size: 10 } })
  const assetId = created.json().embed_code as string
  await withAccountLock(t.ctx.database, owner.accountId, async (trx) => {
    await trx.updateTable('assets').set({ status: 'processing' }).where('account_id', '=', owner.accountId).where('id', '=', assetId).execute()
    await enqueueMediaJob(trx, owner.accountId, { assetId, kind: 'ingest', originalKey: `${assetPrefix(owner.accountId, assetId)}original`, now: at(second) })
  })
  return assetId
}

for (const backend of databaseBackends()) {
  describe(`GET /v2/processing_queue on ${backend.name}`, { skip: backend.skip }, () => {
    it('lists the account\'s running and waiting jobs with their places in the shared queue, never another account\'s', async () => {
      const t = await buildTestApp(backend.name)
      try {
        const other = await t.otherAccount()
        const a = await waitingJob(t, t.admin, 0)
        const theirs = await waitingJob(t, other, 1)
        const b = await waitingJob(t, t.admin, 2)
        const queue = createJobQueue(t.ctx.db, t.ctx.database.dialect)
        assert.equal((await queue.claim('w1', at(3), at(63)))?.asset_id, a)
        const res = await t.signed('GET', '/v2/processing_queue')
        assert.equal(res.statusCode, 200, res.body)
        const body = res.json()
        assert.deepEqual(body.items.map((j: any) => [j.asset_id, j.state, j.queue_position, j.attempts]), [[a, 'running', null, 1], [b, 'queued', 2, 0]])
        assert.deepEqual([body.waiting, body.running], [2, 1])
        assert.equal(body.items[1].started_at, null)
        assert.ok(!JSON.stringify(body).includes(theirs), 'another account\'s job is counted, never named')
        const queued = await t.signed('GET', '/v2/processing_queue', { params: { state: 'queued', limit: '1' } })
        assert.deepEqual(queued.json().items.map((j: any) => j.asset_id), [b])
        const theirView = await t.signed('GET', '/v2/processing_queue', { as: other })
        assert.deepEqual(theirView.json().items.map((j: any) => [j.asset_id, j.queue_position]), [[theirs, 1]])
      } finally { await t.close() }
    })

    it('answers bad requests with the exact error, administrators only', async () => {
      const t = await buildTestApp(backend.name)
      try {
        const manager = await t.userWithRole('manager')
        const readOnly = await t.userWithRole('read_only')
        const table: Array<[string, Record<string, string>, Caller | undefined, number, string, RegExp]> = [
          ['state done', { state: 'done' }, undefined, 400, 'validation_failed', /state/],
          ['limit 0', { limit: '0' }, undefined, 400, 'validation_failed', /limit/],
          ['limit 101', { limit: '101' }, undefined, 400, 'validation_failed', /limit/],
          ['limit abc', { limit: 'abc' }, undefined, 400, 'validation_failed', /limit/],
          ['unknown parameter', { asset_id: 'x' }, undefined, 400, 'validation_failed', /asset_id|additional/i],
          ['a manager', {}, manager, 403, 'permission_denied', /Role manager may not read processing queue\.$/],
          ['a read_only user', {}, readOnly, 403, 'permission_denied', /Role read_only may not read processing queue\.$/]
        ]
        for (const [what, params, as, status, code, detail] of table) {
          const res = await t.signed('GET', '/v2/processing_queue', { params, as })
          assert.equal(res.statusCode, status, `${what}: ${res.body}`)
          assert.equal(res.json().code, code, what)
          assert.match(res.json().detail ?? res.json().message ?? '', detail, `${what}: ${res.body}`)
        }
        const unsigned = await t.app.inject({ method: 'GET', url: '/v2/processing_queue' })
        assert.deepEqual([unsigned.statusCode, unsigned.json().code, unsigned.json().detail], [400, 'parameters_missing', 'These parameters are missing: api_key, signature, expires.'])
      } finally { await t.close() }
    })
  })
}
