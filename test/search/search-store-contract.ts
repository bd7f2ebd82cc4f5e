// The behaviour every SearchStore must show, run against each implementation by its own test file.
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { MAPPING_VERSION, outdatedIndices, type SearchDocument, type SearchStore } from '../../src/search/index.ts'

export interface StoreBackend {
  /** A store over the backend this test started; stores opened twice share its indices. */
  open: (prefix?: string) => SearchStore
  /** Makes an index look written by another release (`null`: no version recorded at all). */
  setStoredVersion: (index: string, version: number | null) => Promise<void>
  /** The concrete name of an account's first index: the index itself (FTS5) or the one behind its alias (engines). */
  concrete: (alias: string) => string
  /** Closes the stores it opened and the backend. */
  close: () => Promise<void>
}

export function asset (id: string, fields: Record<string, unknown>): SearchDocument {
  return { type: 'asset', id, fields: { status: 'live', asset_type: 'video', duration: 1000, created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00Z', ...fields } }
}

const CATALOGUE: SearchDocument[] = [
  asset('a1', { name: 'Café au lait', description: 'Morning routine in Paris', labels: ['/News/Sports', '/Featured'], metadata: { season: '1' } }),
  asset('a2', { name: 'The Big Fat Cat', description: 'A cat video', labels: ['/News'] }),
  asset('a3', { name: 'Big Dog', description: 'A dog video, made in Zürich', labels: ['/Animals/Summer Specials'] }),
  { type: 'label', id: 'l1', fields: { name: 'Cafe', full_name: '/Cafe', parent_id: null } },
  { type: 'syndication', id: 's1', fields: { name: 'Roku feed', type: 'roku' } }
]

const sorted = (ids: string[]): string[] => [...ids].sort()

export function searchStoreContract (name: string, start: () => Promise<StoreBackend>): void {
  describe(`${name} search store`, () => {
    let backend: StoreBackend
    let store: SearchStore
    beforeEach(async () => {
      backend = await start()
      store = backend.open()
    })
    afterEach(async () => { await backend.close() })

    const find = async (clauses: Array<{ field: 'name' | 'description' | 'labels', text: string }>, account = 'acc1'): Promise<string[]> =>
      sorted(await store.search(account, { clauses }))

    it('names each account index after the prefix and refuses ids that cannot name an index', () => {
      assert.equal(store.indexName('acc1'), 'flex-account-acc1')
      assert.equal(backend.open('media').indexName('acc1'), 'media-acc1')
      assert.throws(() => store.indexName('Acc/1'), /cannot name a search index/)
    })

    it('creates an index once and records the current mapping version with it', async () => {
      assert.equal(await store.storedMappingVersion('acc1'), undefined)
      assert.equal(await store.ensureIndex('acc1'), true)
      assert.equal(await store.ensureIndex('acc1'), false)
      assert.equal(await store.storedMappingVersion('acc1'), MAPPING_VERSION)
      assert.deepEqual(await store.listIndices(), [{ name: backend.concrete('flex-account-acc1'), mappingVersion: MAPPING_VERSION }])
      assert.deepEqual(await outdatedIndices(store), [])
    })

    it('reports indices written with another mapping version or none as outdated', async () => {
      await store.upsert('acc1', CATALOGUE)
      await store.upsert('acc2', CATALOGUE)
      await store.upsert('acc3', CATALOGUE)
      await backend.setStoredVersion(backend.concrete('flex-account-acc1'), MAPPING_VERSION - 1)
      await backend.setStoredVersion(backend.concrete('flex-account-acc2'), null)
      assert.equal(await store.storedMappingVersion('acc1'), MAPPING_VERSION - 1)
      assert.equal(await store.storedMappingVersion('acc2'), null)
      assert.deepEqual(await outdatedIndices(store), [
        { name: backend.concrete('flex-account-acc1'), mappingVersion: MAPPING_VERSION - 1 },
        { name: backend.concrete('flex-account-acc2'), mappingVersion: null }
      ])
    })

    it('creates the index with its mapping on the first upsert and returns documents as given', async () => {
      await store.upsert('acc1', CATALOGUE)
      assert.equal(await store.storedMappingVersion('acc1'), MAPPING_VERSION)
      assert.deepEqual(await store.get('acc1', 'asset', 'a1'), CATALOGUE[0])
      // A syndication's own `type` field survives next to the document type.
      assert.deepEqual(await store.get('acc1', 'syndication', 's1'), CATALOGUE[4])
      assert.equal(await store.get('acc1', 'label', 'a1'), null)
    })

    it('replaces a document upserted again, so indexing twice is harmless', async () => {
      await store.upsert('acc1', CATALOGUE)
      await store.upsert('acc1', CATALOGUE)
      await store.upsert('acc1', [asset('a2', { name: 'Renamed clip', labels: [] })])
      assert.equal(await store.count('acc1'), CATALOGUE.length)
      assert.equal(await store.count('acc1', 'asset'), 3)
      assert.equal(await store.count('acc1', 'label'), 1)
      assert.deepEqual(await find([{ field: 'name', text: 'cat' }]), [])
      assert.deepEqual(await find([{ field: 'name', text: 'renamed' }]), ['a2'])
    })

    it('matches names when every word appears, in any case and order', async () => {
      await store.upsert('acc1', CATALOGUE)
      assert.deepEqual(await find([{ field: 'name', text: 'big' }]), ['a2', 'a3'])
      assert.deepEqual(await find([{ field: 'name', text: 'CAT big' }]), ['a2'])
      assert.deepEqual(await find([{ field: 'name', text: 'big bird' }]), [])
      assert.deepEqual(await find([{ field: 'name', text: 'ca' }]), [], 'words match whole, not as prefixes')
    })

    it("folds diacritics both ways: 'Café' is found by 'cafe' and 'Zurich' finds 'Zürich'", async () => {
      await store.upsert('acc1', CATALOGUE)
      assert.deepEqual(await find([{ field: 'name', text: 'cafe' }]), ['a1'])
      assert.deepEqual(await find([{ field: 'name', text: 'CAFÉ' }]), ['a1'])
      assert.deepEqual(await find([{ field: 'description', text: 'zurich' }]), ['a3'])
    })

    it('matches descriptions and not names for a description clause', async () => {
      await store.upsert('acc1', CATALOGUE)
      assert.deepEqual(await find([{ field: 'description', text: 'video' }]), ['a2', 'a3'])
      assert.deepEqual(await find([{ field: 'description', text: 'big' }]), [])
    })

    it('finds a label name anywhere in the label full names', async () => {
      await store.upsert('acc1', CATALOGUE)
      assert.deepEqual(await find([{ field: 'labels', text: 'News' }]), ['a1', 'a2'])
      assert.deepEqual(await find([{ field: 'labels', text: 'sports' }]), ['a1'])
      assert.deepEqual(await find([{ field: 'labels', text: 'Summer Specials' }]), ['a3'])
      assert.deepEqual(await find([{ field: 'labels', text: 'Specials Summer' }]), [], 'a label name is a phrase')
      assert.deepEqual(await find([{ field: 'labels', text: 'Sports Featured' }]), [], 'within one full name')
      assert.deepEqual(await find([{ field: 'labels', text: 'Weather' }]), [])
    })

    it('combines clauses with AND and returns only the asked type', async () => {
      await store.upsert('acc1', CATALOGUE)
      assert.deepEqual(await find([{ field: 'labels', text: 'news' }, { field: 'description', text: 'paris' }]), ['a1'])
      assert.deepEqual(await find([{ field: 'labels', text: 'news' }, { field: 'name', text: 'dog' }]), [])
      assert.deepEqual(await store.search('acc1', { type: 'label', clauses: [{ field: 'name', text: 'cafe' }] }), ['l1'])
      assert.deepEqual(await find([]), ['a1', 'a2', 'a3'], 'no clauses: every asset')
    })

    it('matches nothing for a clause without words and treats query syntax as text', async () => {
      await store.upsert('acc1', CATALOGUE)
      assert.deepEqual(await find([{ field: 'name', text: '  ' }]), [])
      assert.deepEqual(await find([{ field: 'name', text: '"big" OR NOT *' }]), [])
      assert.deepEqual(await find([{ field: 'name', text: 'big: (cat)' }]), ['a2'])
    })

    it('returns every match, however many', async () => {
      const many = Array.from({ length: 2345 }, (_, i) => asset(`m${String(i).padStart(5, '0')}`, { name: `clip number ${i}` }))
      await store.upsert('acc1', many)
      const ids = await store.search('acc1', { clauses: [{ field: 'name', text: 'clip' }] })
      assert.equal(ids.length, many.length)
      assert.deepEqual(sorted(ids), many.map((doc) => doc.id))
    })

    it('keeps accounts apart', async () => {
      await store.upsert('acc1', CATALOGUE)
      await store.upsert('acc2', [asset('b1', { name: 'Café noir' })])
      assert.deepEqual(await find([{ field: 'name', text: 'cafe' }], 'acc2'), ['b1'])
      assert.equal(await store.get('acc2', 'asset', 'a1'), null)
      assert.equal(await store.count('acc2'), 1)
    })

    it('answers empty for an account without an index', async () => {
      assert.deepEqual(await find([{ field: 'name', text: 'cafe' }], 'nobody'), [])
      assert.equal(await store.count('nobody'), 0)
      assert.equal(await store.get('nobody', 'asset', 'a1'), null)
      await store.remove('nobody', [{ type: 'asset', id: 'a1' }])
      assert.deepEqual(await store.listIndices(), [], 'reading or removing never creates an index')
    })

    it('keeps an asset\'s cues as documents of their own, replaced and removed together', async () => {
      const transcript = (id: string, texts: string[], language = 'en'): SearchDocument =>
        ({ type: 'transcript', id, fields: { cues: texts.map((text, i) => ({ language, start_ms: 1000 * i, end_ms: 1000 * i + 900, text })) } })
      const said = async (text: string, account = 'acc1'): Promise<string[]> =>
        (await store.searchTranscripts(account, { text, limit: 100 })).map((hit) => `${hit.asset_id}@${hit.start_ms}`)
      await store.upsert('acc1', [transcript('a1', ['Quarterly coffee report', 'Café crème for everyone']), transcript('a2', ['Tea, not coffee'], 'fr')])
      await store.upsert('acc2', [transcript('a1', ['Quarterly coffee report'])])
      assert.deepEqual(await said('COFFEE'), ['a1@0', 'a2@0'])
      assert.deepEqual(await said('cafe'), ['a1@1000'])
      assert.deepEqual(await said('coffee report'), ['a1@0'])
      assert.deepEqual(await said('!?'), [])
      assert.deepEqual((await store.searchTranscripts('acc1', { text: 'coffee', language: 'fr', limit: 100 })).map((hit) => hit.asset_id), ['a2'])
      assert.deepEqual((await store.searchTranscripts('acc1', { text: 'coffee', assetIds: ['a2'], limit: 100 })).map((hit) => hit.text), ['Tea, not coffee'])
      const first = await store.searchTranscripts('acc1', { text: 'coffee', limit: 1 })
      assert.deepEqual((await store.searchTranscripts('acc1', { text: 'coffee', after: first[0]?.key, limit: 1 })).map((hit) => hit.asset_id), ['a2'])
      // The asset document is untouched by its transcripts, and they by it.
      await store.upsert('acc1', [asset('a1', { name: 'Coffee hour' })])
      assert.deepEqual(await said('coffee'), ['a1@0', 'a2@0'])
      // A new version of the transcripts replaces every old cue; a removal takes them all.
      await store.upsert('acc1', [transcript('a1', ['Espresso only'])])
      assert.deepEqual(await said('coffee'), ['a2@0'])
      assert.deepEqual(await said('espresso'), ['a1@0'])
      await store.remove('acc1', [{ type: 'transcript', id: 'a1' }, { type: 'transcript', id: 'a2' }])
      assert.deepEqual(await said('espresso'), [])
      assert.deepEqual(await said('coffee'), [])
      assert.equal(await store.count('acc1', 'transcript'), 0)
      assert.deepEqual(await said('coffee', 'acc2'), ['a1@0'])
      assert.deepEqual(await store.search('acc1', { clauses: [{ field: 'name', text: 'coffee' }] }), ['a1'])
    })

    it('removes documents and ignores refs that are not indexed', async () => {
      await store.upsert('acc1', CATALOGUE)
      await store.remove('acc1', [{ type: 'asset', id: 'a1' }, { type: 'asset', id: 'missing' }, { type: 'label', id: 'a2' }])
      assert.equal(await store.get('acc1', 'asset', 'a1'), null)
      assert.deepEqual(await find([{ field: 'labels', text: 'news' }]), ['a2'])
      assert.equal(await store.count('acc1'), CATALOGUE.length - 1)
    })

    it('deletes one account index and says whether it existed', async () => {
      await store.upsert('acc1', CATALOGUE)
      await store.upsert('acc2', CATALOGUE)
      assert.equal(await store.deleteIndex('acc1'), true)
      assert.equal(await store.deleteIndex('acc1'), false)
      assert.deepEqual((await store.listIndices()).map((index) => index.name), [backend.concrete('flex-account-acc2')])
      assert.deepEqual(await find([{ field: 'name', text: 'cafe' }]), [])
    })

    it('rebuilds beside the live index: writes reach both, reads the live one, and the swap is one step', async () => {
      await store.upsert('acc1', CATALOGUE)
      await store.upsert('acc2', CATALOGUE)
      await backend.setStoredVersion(backend.concrete('flex-account-acc1'), MAPPING_VERSION - 1)
      assert.deepEqual(await store.indexedAccounts(), ['acc1', 'acc2'])
      const built = await store.beginRebuild('acc1')
      assert.notEqual(built, store.indexName('acc1'))
      assert.deepEqual(await store.indexedAccounts(), ['acc1', 'acc2'], 'a build is not an account of its own')
      assert.deepEqual(await find([{ field: 'name', text: 'cafe' }]), ['a1'], 'reads go to the live index')
      await store.upsert('acc1', [asset('a4', { name: 'Café crème' })])
      await store.remove('acc1', [{ type: 'asset', id: 'a2' }])
      assert.deepEqual(await find([{ field: 'name', text: 'cafe' }]), ['a1', 'a4'], 'writes reach the live index')
      assert.equal(await store.storedMappingVersion('acc1'), MAPPING_VERSION - 1)
      assert.equal(await store.finishRebuild('acc1'), true)
      // The new index holds what was written since it was begun (a reindex writes everything).
      assert.deepEqual(await find([{ field: 'name', text: 'cafe' }]), ['a4'], 'writes reached the build')
      assert.equal(await store.storedMappingVersion('acc1'), MAPPING_VERSION)
      // Engines: the built index, now behind the alias; FTS5: the built table under the live name.
      const left = (await store.listIndices()).map((index) => index.name).filter((name) => name.startsWith('flex-account-acc1'))
      assert.equal(left.length, 1)
      assert.ok([built, store.indexName('acc1')].includes(left[0]))
      assert.deepEqual(await find([{ field: 'name', text: 'cafe' }], 'acc2'), ['a1'], 'another account is untouched')
      assert.equal(await store.finishRebuild('acc1'), false, 'nothing left to swap')
    })

    it('drops an unfinished build without touching the live index', async () => {
      await store.upsert('acc1', CATALOGUE)
      await store.beginRebuild('acc1')
      await store.beginRebuild('acc1')
      assert.equal((await store.listIndices()).length, 2, 'a second begin replaces the first build')
      assert.equal(await store.cancelRebuild('acc1'), true)
      assert.equal(await store.cancelRebuild('acc1'), false)
      assert.deepEqual((await store.listIndices()).map((index) => index.name), [backend.concrete('flex-account-acc1')])
      assert.equal(await store.count('acc1'), CATALOGUE.length)
    })

    it('deletes every index with the prefix and nothing else', async () => {
      const other = backend.open('media')
      await store.upsert('acc1', CATALOGUE)
      await store.upsert('acc2', CATALOGUE)
      await other.upsert('acc1', CATALOGUE)
      assert.deepEqual(await store.deleteAllIndices(), [backend.concrete('flex-account-acc1'), backend.concrete('flex-account-acc2')])
      assert.deepEqual(await store.listIndices(), [])
      assert.deepEqual(await store.deleteAllIndices(), [])
      assert.deepEqual((await other.listIndices()).map((index) => index.name), [backend.concrete('media-acc1')])
      // The store keeps working: the next write recreates the index with the current mapping.
      await store.upsert('acc1', [asset('a9', { name: 'After reindex' })])
      assert.equal(await store.storedMappingVersion('acc1'), MAPPING_VERSION)
    })
  })
}
