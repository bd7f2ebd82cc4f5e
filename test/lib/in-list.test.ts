import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import SQLite from 'better-sqlite3'
import { inList } from '../../src/lib/in-list.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'

describe('inList', () => {
  it('pads a list to the next power of two with its last value, keeping the values and their order', () => {
    assert.deepEqual(inList([]), [])
    assert.deepEqual(inList(['a']), ['a'])
    assert.deepEqual(inList(['a', 'b', 'c']), ['a', 'b', 'c', 'c'])
    assert.deepEqual(inList(new Set([1, 2, 3, 4, 5])), [1, 2, 3, 4, 5, 5, 5, 5])
    assert.equal(inList(Array.from({ length: 500 }, (_, i) => i)).length, 512)
  })

  it('takes at most ten lengths up to 512 values', () => {
    const lengths = new Set(Array.from({ length: 512 }, (_, n) => inList(Array.from({ length: n + 1 }, (_, i) => i)).length))
    assert.deepEqual([...lengths], [1, 2, 4, 8, 16, 32, 64, 128, 256, 512])
  })
})

/**
 * The embedded database keeps a prepared statement per SQL text (native memory, tens of KiB with a few
 * hundred placeholders): pages of every size and searches of every hit count must not make a statement each.
 */
describe('Statements prepared by lists of every length (SQLite)', () => {
  let t: TestApp
  const prepared = new Set<string>()
  const prepare = SQLite.prototype.prepare
  before(async () => {
    // Observes the driver's prepare (the statement cache calls it once per SQL text it keeps).
    SQLite.prototype.prepare = function (this: SQLite.Database, source: string) {
      prepared.add(source)
      return prepare.call(this, source)
    } as typeof prepare
    t = await buildTestApp('sqlite')
    const label = (await t.signed('POST', '/v2/labels', { body: { name: 'Genre' } })).json().id as string
    for (let i = 0; i < 40; i++) {
      const id = (await t.signed('POST', '/v2/assets', { body: { asset_type: 'remote_asset', name: `river clip ${i}`, stream_urls: { source_file: 'https://cdn.example.com/a.mp4' } } })).json().embed_code as string
      assert.equal((await t.signed('POST', `/v2/assets/${id}/labels`, { body: [label] })).statusCode, 200)
      assert.equal((await t.signed('PUT', `/v2/assets/${id}/metadata`, { body: { tier: String(i % 3) } })).statusCode, 200)
    }
  })
  after(async () => {
    SQLite.prototype.prepare = prepare
    await t.close()
  })

  it('lists with include at 40 page sizes prepare a few statements per query, not one per size', async () => {
    prepared.clear()
    for (let limit = 1; limit <= 40; limit++) {
      const res = await t.signed('GET', `/v2/assets?limit=${limit}&include=metadata,labels,player`)
      assert.equal(res.json().items.length, limit)
    }
    const before = prepared.size
    for (let limit = 1; limit <= 40; limit++) await t.signed('GET', `/v2/assets?limit=${limit}&include=metadata,labels,player`)
    assert.equal(prepared.size, before, 'the second round prepares nothing new')
    const lists = [...prepared].filter((sql) => / in \(\?/.test(sql))
    // Two include queries (metadata, labels) at seven lengths (1, 2, 4 … 64): 14 at most; 80 without padding.
    assert.ok(lists.length <= 14, `${lists.length} statements: ${lists.join('\n')}`)
  })
})
