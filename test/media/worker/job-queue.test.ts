import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { withAccountLock } from '../../../src/db/account-lock.ts'
import { enqueueMediaJob } from '../../../src/media/jobs/index.ts'
import { assetPrefix } from '../../../src/media/store/index.ts'
import { createJobQueue } from '../../../src/media/worker/job-queue.ts'
import { buildTestApp, type TestApp } from '../../support/app.ts'
import { databaseBackends } from '../../support/backends.ts'

const at = (second: number): string => new Date(Date.UTC(2026, 10, 25, 12, 0, second)).toISOString()

async function pendingJob (t: TestApp, second = 0): Promise<string> {
  const created = await t.signed('POST', '/v2/assets', { body: { asset_type: 'video', name: 'Clip', file_name: 'clip.mp4', file_size: 10 } })
  const assetId = created.json().embed_code as string
  const accountId = t.admin.accountId
  return await withAccountLock(t.ctx.database, accountId, async (trx) => {
    // As the upload's completion does: the asset moves to processing with its job.
    await trx.updateTable('assets').set({ status: 'processing' }).where('account_id', '=', accountId).where('id', '=', assetId).execute()
    return await enqueueMediaJob(trx, accountId, { assetId, kind: 'ingest', originalKey: `${assetPrefix(accountId, assetId)}original`, now: at(second) })
  })
}

for (const backend of databaseBackends()) {
  describe(`the media job queue on ${backend.name}`, { skip: backend.skip }, () => {
    it('gives a job to exactly one of several workers claiming at once, counting the attempt', async () => {
      const t = await buildTestApp(backend.name)
      try {
        const id = await pendingJob(t)
        const queue = createJobQueue(t.ctx.db, t.ctx.database.dialect)
        const claims = await Promise.all(['w1', 'w2', 'w3', 'w4'].map(async (owner) => await queue.claim(owner, at(1), at(61))))
        const won = claims.filter((job) => job !== undefined)
        assert.equal(won.length, 1)
        assert.deepEqual([won[0]?.id, won[0]?.state, won[0]?.attempts], [id, 'running', 1])
        assert.deepEqual(await queue.depth(), { pending: 0, running: 1 })
      } finally { await t.close() }
    })

    it('gives workers claiming at once different jobs, never the same one', async () => {
      const t = await buildTestApp(backend.name)
      try {
        const ids = [await pendingJob(t, 0), await pendingJob(t, 1), await pendingJob(t, 2)]
        const queue = createJobQueue(t.ctx.db, t.ctx.database.dialect)
        const claims = await Promise.all(['w1', 'w2', 'w3', 'w4', 'w5'].map(async (owner) => await queue.claim(owner, at(3), at(63))))
        const won = claims.filter((job) => job !== undefined).map((job) => job?.id)
        assert.equal(new Set(won).size, won.length, 'no job twice')
        assert.ok(won.length >= 1 && won.every((id) => ids.includes(id as string)))
        const rows = await t.ctx.db.selectFrom('media_jobs').select(['id', 'lease_owner']).where('state', '=', 'running').execute()
        assert.equal(rows.length, won.length)
      } finally { await t.close() }
    })

    it('shows a waiting job its place in the queue (3, then 2), then that it runs, on the asset, its list and its streams', async () => {
      const t = await buildTestApp(backend.name)
      try {
        await pendingJob(t, 0)
        await pendingJob(t, 1)
        const last = await pendingJob(t, 2)
        const asset = (await t.ctx.db.selectFrom('media_jobs').select('asset_id').where('id', '=', last).executeTakeFirstOrThrow()).asset_id
        const standing = async (): Promise<any> => {
          const res = await t.signed('GET', `/v2/assets/${asset}/streams`)
          assert.equal(res.statusCode, 200, res.body)
          const own = await t.signed('GET', `/v2/assets/${asset}`)
          assert.equal(own.statusCode, 200, own.body)
          assert.deepEqual(own.json().processing, res.json().processing, 'the asset carries what its streams say')
          const listed = (await t.signed('GET', '/v2/assets', { params: { limit: '10' } })).json().items.find((a: any) => a.embed_code === asset)
          assert.deepEqual(listed.processing, res.json().processing, 'and so does the list')
          return res.json().processing
        }
        assert.deepEqual(await standing(), { state: 'queued', queue_position: 3, started_at: null, estimated_seconds_left: null, renditions: [] })
        // One worker (a concurrency of 1): it takes the oldest job, finishes it, takes the next.
        const queue = createJobQueue(t.ctx.db, t.ctx.database.dialect)
        const first = await queue.claim('w1', at(3), at(63))
        assert.equal((await standing()).queue_position, 2)
        await queue.settle(first?.id as string, 'w1', at(4), { state: 'done' })
        const second = await queue.claim('w1', at(5), at(65))
        assert.equal((await standing()).queue_position, 1)
        await queue.settle(second?.id as string, 'w1', at(6), { state: 'done' })
        assert.equal((await queue.claim('w1', at(7), at(67)))?.id, last)
        assert.equal((await standing()).state, 'running')
      } finally { await t.close() }
    })

    it('lets another worker take a job whose lease ran out; the first can no longer renew or settle it', async () => {
      const t = await buildTestApp(backend.name)
      try {
        await pendingJob(t)
        const queue = createJobQueue(t.ctx.db, t.ctx.database.dialect)
        const first = await queue.claim('dead', at(1), at(3))
        assert.ok(first !== undefined)
        assert.equal(await queue.claim('w2', at(2), at(62)), undefined, 'the lease still holds')
        assert.equal(await queue.renew(first.id, 'dead', at(2), at(4)), true)
        const retaken = await queue.claim('w2', at(5), at(65))
        assert.deepEqual([retaken?.id, retaken?.lease_owner, retaken?.attempts], [first.id, 'w2', 2])
        assert.equal(await queue.renew(first.id, 'dead', at(6), at(8)), false)
        await queue.settle(first.id, 'dead', at(6), { state: 'failed', error: 'late' })
        const row = await t.ctx.db.selectFrom('media_jobs').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow()
        assert.deepEqual([row.state, row.lease_owner, row.error], ['running', 'w2', null])
        await queue.settle(first.id, 'w2', at(7), { state: 'done' })
        assert.equal(await queue.claim('w3', at(100), at(160)), undefined, 'a done job is never taken again')
        assert.deepEqual(await queue.depth(), { pending: 0, running: 0 })
      } finally { await t.close() }
    })

    it('gives a job back without counting the attempt when it ended for a reason of ours', async () => {
      const t = await buildTestApp(backend.name)
      try {
        const id = await pendingJob(t)
        const queue = createJobQueue(t.ctx.db, t.ctx.database.dialect)
        const first = await queue.claim('w1', at(1), at(61))
        assert.equal(first?.attempts, 1)
        await queue.release(id, 'someone else', at(2), 'not mine')
        assert.deepEqual(await queue.depth(), { pending: 0, running: 1 }, 'only the holder of the lease gives the job back')
        await queue.release(id, 'w1', at(2), 'the database was busy')
        const row = await t.ctx.db.selectFrom('media_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
        assert.deepEqual([row.state, row.lease_owner, Number(row.attempts), row.error], ['pending', null, 0, 'the database was busy'])
        assert.equal((await queue.claim('w2', at(3), at(63)))?.attempts, 1, 'the next claim is the first counted attempt')
      } finally { await t.close() }
    })

    it('uncounts the attempt of a worker that lost the lease while alive; the new holder keeps its own', async () => {
      const t = await buildTestApp(backend.name)
      try {
        const id = await pendingJob(t)
        const queue = createJobQueue(t.ctx.db, t.ctx.database.dialect)
        await queue.claim('slow', at(1), at(3))
        const taken = await queue.claim('w2', at(5), at(65))
        assert.equal(taken?.attempts, 2)
        await queue.forgive(id, at(6))
        const row = await t.ctx.db.selectFrom('media_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
        assert.deepEqual([row.state, row.lease_owner, Number(row.attempts)], ['running', 'w2', 1])
      } finally { await t.close() }
    })
  })
}
