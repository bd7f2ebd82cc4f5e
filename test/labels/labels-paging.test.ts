import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { hexId } from '../../src/lib/ids.ts'
import { storedTime } from '../../src/lib/clock.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, type Caller, type TestApp } from '../support/app.ts'

const LIMIT = 7

for (const backend of databaseBackends()) {
  describe(`/v2/labels paging on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    // The walk and the churn make a few thousand requests in one frozen minute: lift the credit allowance.
    before(async () => { t = await buildTestApp(backend.name, { CREDITS_PER_MINUTE: '1000000' }) })
    after(async () => { await t.close() })

    /** `count` top-level labels in a fresh account, written in bulk; groups of ten share a created_at (ties break on id). */
    async function seed (count: number): Promise<{ as: Caller, ids: string[] }> {
      const as = await t.otherAccount()
      const base = t.clock.now()
      const rows = Array.from({ length: count }, (_, i) => {
        const at = storedTime(base + Math.floor(i / 10))
        return { id: hexId(), account_id: as.accountId, name: `L${i}`, parent_id: null, full_name: `/L${i}`, created_at: at, updated_at: at }
      })
      for (let i = 0; i < rows.length; i += 500) await t.ctx.db.insertInto('labels').values(rows.slice(i, i + 500)).execute()
      return { as, ids: rows.map((r) => r.id) }
    }

    /** Follows next_page from the first page; returns every page's ids and whether it had a next_page. */
    async function walk (as: Caller, first: string, gap: () => Promise<void> = nextTurn): Promise<Array<{ ids: string[], next: boolean }>> {
      const pages: Array<{ ids: string[], next: boolean }> = []
      let path: string | undefined = first
      while (path !== undefined) {
        // A client's network gap between pages: lets the other task's requests in (on in-memory SQLite a
        // GET otherwise completes in microtasks and a request with a body never gets a turn).
        await gap()
        const res = await t.signed('GET', path, { as })
        assert.equal(res.statusCode, 200, res.body)
        const page = res.json() as { items: Array<{ id: string }>, next_page?: string }
        pages.push({ ids: page.items.map((l) => l.id), next: page.next_page !== undefined })
        if (page.next_page !== undefined) assert.match(page.next_page, /^\/v2\/labels\?limit=7&page_token=[A-Za-z0-9_.%-]+$/)
        path = page.next_page
        assert.ok(pages.length < 1000, 'the walk ends')
      }
      return pages
    }

    it('walks 2,000 labels at limit=7 while another task creates and deletes labels: none twice, no survivor skipped', async () => {
      const { as, ids } = await seed(2000)
      const deleted = new Set<string>()
      let walking = true
      let created = 0
      // The other task (three workers): creates a label, then deletes a random seeded one, until the walk
      // ends. New labels share the clock's current time, so they land before and after the walker's position.
      const churn = async (worker: number): Promise<void> => {
        while (walking) {
          const res = await t.signed('POST', '/v2/labels', { as, body: { name: `new-${worker}-${created++}` } })
          assert.equal(res.statusCode, 200, res.body)
          const victim = ids[Math.floor(Math.random() * ids.length)] as string
          if (!deleted.has(victim)) {
            deleted.add(victim)
            assert.equal((await t.signed('DELETE', `/v2/labels/${victim}`, { as })).statusCode, 200)
          }
        }
      }
      const others = Promise.all([0, 1, 2].map(churn))
      // Between two pages the other task creates at least one label, however fast a page is served.
      let createdBefore = 0
      const afterACreate = async (): Promise<void> => {
        while (created === createdBefore) await nextTurn()
        createdBefore = created
      }
      const pages = await walk(as, `/v2/labels?limit=${LIMIT}`, afterACreate)
      walking = false
      await others

      const seen = pages.flatMap((p) => p.ids)
      assert.equal(new Set(seen).size, seen.length, 'no label is returned twice')
      const skipped = ids.filter((id) => !deleted.has(id) && !seen.includes(id))
      assert.deepEqual(skipped, [], 'every label that existed throughout is returned')
      assert.ok(created >= 30 && deleted.size >= 30, `the other task really ran (${created} created, ${deleted.size} deleted)`)
      assert.equal(pages.at(-1)?.next, false)
      for (const page of pages.slice(0, -1)) assert.equal(page.ids.length, LIMIT, 'only the last page is short')
    })

    for (const count of [2002, 14, 15, 7, 1, 0]) {
      it(`ends with no next_page exactly at the last item for ${count} labels (${count % LIMIT === 0 ? 'a' : 'not a'} multiple of the limit)`, async () => {
        const { as, ids } = await seed(count)
        const pages = await walk(as, `/v2/labels?limit=${LIMIT}`)
        assert.equal(pages.length, Math.max(1, Math.ceil(count / LIMIT)), 'no empty page after a full one')
        assert.deepEqual(pages.map((p) => p.next), pages.map((_, i) => i < pages.length - 1))
        assert.deepEqual(pages.flatMap((p) => p.ids).sort(), [...ids].sort())
      })
    }
  })
}

async function nextTurn (): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
}
