import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { AuthenticationError, BadRequestError, EventBatchSender, IndexingService, type PlayerEvent, type Reelhouse } from 'reelhouse/client'
import { databaseBackends } from '../support/backends.ts'
import { startClientServer, type ClientServer } from './support/client-server.ts'

const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)

for (const backend of databaseBackends()) {
  describe(`the client's analytics and indexing service against a real server on ${backend.name}`, { skip: backend.skip }, () => {
    let server: ClientServer
    let client: Reelhouse
    let one: string
    let two: string
    before(async () => {
      server = await startClientServer(backend.name, { INDEXER_USER: 'ops', INDEXER_PASSWORD: 'pass word' })
      client = server.client()
      const asset = async (name: string): Promise<string> =>
        (await client.assets.create({ asset_type: 'remote_asset', name, stream_urls: { iphone: 'https://cdn.example.com/a.m3u8' } })).embed_code
      one = await asset('One')
      two = await asset('Two')
    })
    after(async () => { await server?.close() })

    const flush = async (): Promise<void> => { await (await server.ctx.analytics.get()).flush() }
    const at = new Date(Date.now() - 3_600_000).toISOString()

    it('sends a session\'s events in batches of at most 1,000, and a player without a secret can too', async () => {
      const events = client.analytics.events({ account_code: server.admin.accountCode, session_id: 'session-1', asset_id: one, device: { id: 'd1' } })
      await events.add({ name: 'play_requested', time: at }, { name: 'video_start', time: at })
      const displays: PlayerEvent[] = Array.from({ length: 1001 }, () => ({ name: 'display', time: at }))
      await events.add(...displays)
      assert.equal(events.pending, 3, 'the first 1,000 went out as soon as there were 1,000')
      await events.flush()
      assert.equal(events.pending, 0)

      const player = new EventBatchSender({ url: `${server.cdnUrl}/v2/analytics/events`, session: { account_code: server.admin.accountCode, session_id: 'session-2', asset_id: two } })
      await player.add({ name: 'display', time: Date.parse(at) })
      await player.flush()

      const refused = new EventBatchSender({ url: `${server.baseUrl}/v2/analytics/events`, session: { account_code: server.admin.accountCode, session_id: 's', asset_id: 'no-such-asset' } })
      await refused.add({ name: 'display', time: at })
      await assert.rejects(refused.flush(), (error: unknown) => error instanceof BadRequestError && error.code === 'validation_failed' && error.errors?.asset_id !== undefined)
      assert.equal(refused.pending, 1, 'a refused batch stays buffered')
      refused.clear()
      await flush()
    })

    it('reads a report in the query form, page by page, and in the classic path form, with the same numbers', async () => {
      const report = await client.analytics.report({ startDate: day(-1), endDate: day(1), dimensions: ['asset'], metrics: ['displays', 'video_starts'], sort: '-displays' })
      assert.deepEqual(report.results[0]?.data, [
        { group: { asset: one }, metrics: { displays: 1001, video_starts: 1 } },
        { group: { asset: two }, metrics: { displays: 1, video_starts: 0 } }
      ])
      const pages = []
      for await (const page of client.analytics.reportPages({ startDate: day(-1), endDate: day(1), dimensions: ['asset'], metrics: ['displays'], sort: '-displays', limit: 1 })) pages.push(page)
      assert.deepEqual(pages.map((page) => page.results[0]?.data[0]?.group.asset), [one, two])
      assert.equal(pages[0]?.total_count, 2)
      const classic = await client.analytics.classicReport({ asset: one, by: 'total', from: day(-1), to: day(1), metrics: 'displays,video_starts' })
      assert.deepEqual(classic.results[0]?.data, [{ group: {}, metrics: { displays: 1001, video_starts: 1 } }])
    })

    it('queues a reindex and reads the pending count from the indexing service, with basic auth from the URL or the options', async () => {
      const url = new URL(server.indexerUrl)
      url.username = 'ops'
      url.password = 'pass word'
      const indexing = new IndexingService({ baseUrl: url.toString() })
      const { queued } = await indexing.reindex({ accountId: server.admin.accountId })
      assert.ok(queued >= 2, `queued ${queued}`)
      const status = await indexing.queueStatus()
      assert.equal(status.name, 'flex.indexelastic.indexdeduped.queue')
      assert.equal(await indexing.queueDepth(), status.messages)
      assert.ok(status.messages >= 2)
      assert.equal(await new IndexingService({ baseUrl: server.indexerUrl, username: 'ops', password: 'pass word' }).queueDepth(), status.messages)
      await assert.rejects(new IndexingService({ baseUrl: server.indexerUrl }).queueDepth(), (error: unknown) =>
        error instanceof AuthenticationError && error.code === 'indexer_unauthorized')
    })
  })
}
