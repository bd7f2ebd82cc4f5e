import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { withAccountLock } from '../../../src/db/account-lock.ts'
import { enqueueMediaJob } from '../../../src/media/jobs/index.ts'
import { assetPrefix } from '../../../src/media/store/index.ts'
import { databaseBackends } from '../../support/backends.ts'
import { buildTestApp } from '../../support/app.ts'

for (const backend of databaseBackends()) {
  describe(`media jobs on ${backend.name}`, { skip: backend.skip }, () => {
    it('records a pending job with the transaction that commits, and none when it rolls back', async () => {
      const t = await buildTestApp(backend.name)
      try {
        const created = await t.signed('POST', '/v2/assets', { body: { asset_type: 'video', name: 'Clip', file_name: 'clip.mp4', file_size: 10 } })
        const assetId = created.json().embed_code as string
        const accountId = t.admin.accountId
        const originalKey = `${assetPrefix(accountId, assetId)}originals/abc`
        await assert.rejects(withAccountLock(t.ctx.database, accountId, async (trx) => {
          await enqueueMediaJob(trx, accountId, { assetId, kind: 'ingest', originalKey })
          throw new Error('the transition failed')
        }), /the transition failed/)
        assert.equal((await t.ctx.db.selectFrom('media_jobs').selectAll().execute()).length, 0)

        const id = await withAccountLock(t.ctx.database, accountId, async (trx) => await enqueueMediaJob(trx, accountId, { assetId, kind: 'ingest', originalKey }))
        const jobs = await t.ctx.db.selectFrom('media_jobs').selectAll().where('account_id', '=', accountId).execute()
        assert.equal(jobs.length, 1)
        assert.deepEqual({ ...jobs[0], created_at: undefined, updated_at: undefined }, {
          id, account_id: accountId, asset_id: assetId, kind: 'ingest', original_key: originalKey, state: 'pending',
          language: null, attempts: 0, lease_owner: null, lease_until: null, error: null, created_at: undefined, updated_at: undefined
        })
      } finally { await t.close() }
    })

    it('refuses an original outside the asset\'s prefix', async () => {
      const t = await buildTestApp(backend.name)
      try {
        await assert.rejects(withAccountLock(t.ctx.database, t.admin.accountId, async (trx) =>
          await enqueueMediaJob(trx, t.admin.accountId, { assetId: 'A'.repeat(32), kind: 'ingest', originalKey: 'accounts/x/assets/y/original' })), /not under the asset's prefix/)
      } finally { await t.close() }
    })
  })
}
