import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Label, Reelhouse } from 'reelhouse/client'
import { databaseBackends } from '../support/backends.ts'
import { startClientServer, type ClientServer } from './support/client-server.ts'

const COUNT = 1200

for (const backend of databaseBackends()) {
  describe(`paging ${COUNT} labels with the client on ${backend.name}`, { skip: backend.skip }, () => {
    let server: ClientServer
    let client: Reelhouse
    let created: string[]
    before(async () => {
      server = await startClientServer(backend.name)
      client = server.client()
      created = []
      // 100 full paths a request: the largest batch the server takes.
      for (let batch = 0; batch < COUNT / 100; batch++) {
        const paths = Array.from({ length: 100 }, (_, i) => `/Label ${String(batch * 100 + i).padStart(4, '0')}`)
        created.push(...(await client.labels.createByFullPath(paths)).map((label) => label.id))
      }
    })
    after(async () => { await server?.close() })

    it(`for await walks all ${COUNT}, each once, following next_page`, async () => {
      const seen: Label[] = []
      for await (const label of client.labels.list()) seen.push(label)
      assert.equal(seen.length, COUNT)
      assert.deepEqual(seen.map((label) => label.id).sort(), [...created].sort())
    })

    it('pages by hand: firstPage, hasNextPage, getNextPage, and pages()', async () => {
      const first = await client.labels.list({ limit: 500 }).firstPage()
      assert.equal(first.items.length, 500)
      assert.ok(first.hasNextPage())
      assert.match(first.nextPage ?? '', /^\/v2\/labels\?limit=500&page_token=[^&]+$/)
      const second = await first.getNextPage()
      assert.equal(second.items.length, 500)
      assert.equal(new Set([...first.items, ...second.items].map((label) => label.id)).size, 1000)
      const sizes: number[] = []
      for await (const page of client.labels.list({ limit: 500 }).pages()) sizes.push(page.items.length)
      assert.deepEqual(sizes, [500, 500, 200])
      const last = await (await second.getNextPage())
      assert.equal(last.hasNextPage(), false)
      await assert.rejects(last.getNextPage(), RangeError)
      let fromSecond = 0
      // eslint-disable-next-line @typescript-eslint/no-unused-vars -- counting, not reading, the items.
      for await (const _ of second) fromSecond++
      assert.equal(fromSecond, COUNT - 500, 'a page iterates its items and every page after it')
    })
  })
}
