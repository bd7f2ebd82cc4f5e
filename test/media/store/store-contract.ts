import assert from 'node:assert/strict'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { describe, it } from 'node:test'
import {
  InvalidMediaKeyError, InvalidRangeError, MediaNotFoundError, MediaSizeMismatchError, mediaStoreReadiness,
  RangeNotSatisfiableError, type ConcatStrategy, type MediaStore
} from '../../../src/media/store/index.ts'
import { failingBody, gatedBody, MemoryProbe, MiB, PatternBody, patternBytes, readAll, sha256, sha256Of } from './bodies.ts'

/** One store for one test, and how to look behind it. */
export interface ContractHarness {
  store: MediaStore
  /** Temporary files or unfinished multipart uploads the store holds: a failed write must leave none. */
  leftovers: () => Promise<string[]>
  cleanup: () => Promise<void>
}

export interface ContractOptions {
  /** False to run; else the reason the suite is skipped here. */
  skip: string | false
  open: () => Promise<ContractHarness>
  /** How this store combines parts of ≥ 5 MiB and of 100 kB. */
  concatStrategies: { large: ConcatStrategy, small: ConcatStrategy, parts: ConcatStrategy }
}

const TIMEOUT = 120_000

async function keysUnder (store: MediaStore, prefix: string): Promise<string[]> {
  const keys: string[] = []
  for await (const object of store.list(prefix)) keys.push(object.key)
  return keys
}

/**
 * The behaviour every MediaStore must show, run against each implementation: the file store always,
 * S3 (Ceph RGW) when TEST_S3_URL is set.
 */
export function mediaStoreContract (name: string, options: ContractOptions): void {
  const { skip } = options
  const test = (title: string, body: (store: MediaStore, harness: ContractHarness) => Promise<void>): void => {
    it(title, { skip, timeout: TIMEOUT }, async () => {
      const harness = await options.open()
      try {
        await body(harness.store, harness)
      } finally {
        await harness.cleanup()
      }
    })
  }

  describe(`media store contract: ${name}`, () => {
    test('round-trips a streamed 48 MiB body, SHA-256 equal, without holding it in memory', async (store) => {
      const probe = new MemoryProbe()
      probe.start()
      const body = new PatternBody(48 * MiB, 1, probe.sample)
      const put = await store.put('accounts/a1/big.bin', body, { contentLength: 48 * MiB, contentType: 'video/mp4' })
      const putGrowth = probe.peakGrowth
      assert.equal(put.size, 48 * MiB)

      const head = await store.head('accounts/a1/big.bin')
      assert.equal(head.size, 48 * MiB)
      assert.equal(head.contentType, 'video/mp4')
      assert.ok(head.etag !== undefined && head.lastModified instanceof Date)

      probe.start()
      const object = await store.get('accounts/a1/big.bin')
      assert.equal(object.contentLength, 48 * MiB)
      assert.equal(object.contentType, 'video/mp4')
      assert.equal(object.range, undefined)
      const read = await sha256Of(object.body, probe.sample)
      assert.deepEqual(read, { sha256: body.sha256, bytes: 48 * MiB })
      assert.ok(putGrowth < 16 * MiB, `put held ${(putGrowth / MiB).toFixed(1)} MiB of a 48 MiB body`)
      assert.ok(probe.peakGrowth < 16 * MiB, `get held ${(probe.peakGrowth / MiB).toFixed(1)} MiB of a 48 MiB body`)
    })

    test('stores a 20 MiB stream whose length is not declared', async (store) => {
      const body = new PatternBody(20 * MiB + 12345, 2)
      const put = await store.put('u/unknown-length', body)
      assert.equal(put.size, 20 * MiB + 12345)
      const object = await store.get('u/unknown-length')
      assert.equal(object.contentType, 'application/octet-stream')
      assert.deepEqual(await sha256Of(object.body), { sha256: body.sha256, bytes: 20 * MiB + 12345 })
    })

    test('replaces an object: the last complete write wins, with its own type and validator', async (store) => {
      const first = await store.put('x/chunk-000001', Buffer.from('first version'), { contentType: 'text/plain' })
      const second = await store.put('x/chunk-000001', Buffer.from('second, longer version'), { contentType: 'application/json' })
      assert.notEqual(first.etag, second.etag)
      const object = await store.get('x/chunk-000001')
      assert.equal((await readAll(object.body)).toString(), 'second, longer version')
      assert.equal(object.contentType, 'application/json')
      assert.equal(object.etag, second.etag)
      await store.put('x/chunk-000001', Buffer.from('third'))
      assert.equal((await store.head('x/chunk-000001')).contentType, 'application/octet-stream')
    })

    test('keeps the old object for readers while a new one is still arriving', async (store) => {
      const old = patternBytes(3 * MiB, 3)
      await store.put('x/original', old)
      const next = patternBytes(6 * MiB, 4)
      const gated = gatedBody(next.subarray(0, 3 * MiB), next.subarray(3 * MiB))
      const writing = store.put('x/original', gated.body, { contentLength: next.length })
      await gated.halfway
      const during = await store.get('x/original')
      assert.equal(sha256(await readAll(during.body)), sha256(old), 'a reader saw a partial write')
      assert.equal(during.size, old.length)
      gated.release()
      await writing
      assert.equal(sha256(await readAll((await store.get('x/original')).body)), sha256(next))
    })

    for (const declared of [true, false]) {
      test(`stores nothing when the body fails midway (${declared ? 'declared' : 'unknown'} length)`, async (store, harness) => {
        const size = 12 * MiB
        await assert.rejects(store.put('fail/new', failingBody(10 * MiB), declared ? { contentLength: size } : {}), /the client went away/)
        assert.equal(await store.exists('fail/new'), false)
        await assert.rejects(store.head('fail/new'), MediaNotFoundError)

        const old = patternBytes(64 * 1024, 5)
        await store.put('fail/old', old)
        await assert.rejects(store.put('fail/old', failingBody(10 * MiB), declared ? { contentLength: size } : {}), /the client went away/)
        assert.equal(sha256(await readAll((await store.get('fail/old')).body)), sha256(old))
        assert.deepEqual(await harness.leftovers(), [])
        assert.deepEqual(await keysUnder(store, 'fail/'), ['fail/old'])
      })
    }

    test('refuses a body whose length differs from the declared one, storing nothing', async (store, harness) => {
      await assert.rejects(store.put('size/short', new PatternBody(999, 6), { contentLength: 1000 }),
        (error: unknown) => error instanceof MediaSizeMismatchError && error.expected === 1000 && error.received === 999)
      await assert.rejects(store.put('size/long', new PatternBody(1001, 6), { contentLength: 1000 }), MediaSizeMismatchError)
      await assert.rejects(store.put('size/buffer', Buffer.alloc(10), { contentLength: 11 }), MediaSizeMismatchError)
      assert.deepEqual(await keysUnder(store, 'size/'), [])
      assert.deepEqual(await harness.leftovers(), [])
    })

    test('serves byte ranges a-b, a- and -n with Content-Range', async (store) => {
      const bytes = patternBytes(1000, 7)
      await store.put('r/segment.ts', bytes, { contentType: 'video/mp2t' })
      const cases: Array<[string, number, number]> = [
        ['bytes=0-0', 0, 0], ['bytes=10-19', 10, 19], ['bytes=990-5000', 990, 999], ['bytes=100-', 100, 999],
        ['bytes=-5', 995, 999], ['bytes=-5000', 0, 999]
      ]
      for (const [range, start, end] of cases) {
        const object = await store.get('r/segment.ts', { range })
        assert.deepEqual((await readAll(object.body)), bytes.subarray(start, end + 1), range)
        assert.equal(object.contentLength, end - start + 1, range)
        assert.deepEqual(object.range, { start, end }, range)
        assert.equal(object.contentRange, `bytes ${start}-${end}/1000`, range)
        assert.equal(object.size, 1000, range)
        assert.equal(object.contentType, 'video/mp2t', range)
      }
      const parsed = await store.get('r/segment.ts', { range: { suffix: 1 } })
      assert.deepEqual(await readAll(parsed.body), bytes.subarray(999))
    })

    test('answers an unsatisfiable range with a distinct error that carries the size', async (store) => {
      await store.put('r/ten', Buffer.alloc(10, 1))
      await store.put('r/empty', Buffer.alloc(0))
      for (const [key, range, size] of [['r/ten', 'bytes=10-', 10], ['r/ten', 'bytes=50-60', 10], ['r/ten', 'bytes=-0', 10], ['r/empty', 'bytes=0-', 0], ['r/empty', 'bytes=-1', 0]] as const) {
        await assert.rejects(store.get(key, { range }), (error: unknown) => error instanceof RangeNotSatisfiableError && error.size === size && error.key === key, `${key} ${range}`)
      }
      for (const range of ['bytes=1-2,4-5', 'items=0-1', 'bytes=5-2', 'bytes=x-']) {
        await assert.rejects(store.get('r/ten', { range }), InvalidRangeError, range)
      }
      assert.equal((await readAll((await store.get('r/empty')).body)).length, 0)
    })

    test('answers a typed not-found error for a missing key', async (store) => {
      for (const call of [() => store.head('no/such'), () => store.get('no/such'), () => store.get('no/such', { range: 'bytes=0-1' })]) {
        await assert.rejects(call(), (error: unknown) => error instanceof MediaNotFoundError && error.key === 'no/such' && error.code === 'media_not_found')
      }
      assert.equal(await store.exists('no/such'), false)
      await store.delete('no/such') // deleting what is not there is fine
    })

    test('lists by prefix in key order, and only under that prefix', async (store) => {
      for (const key of ['a/2', 'a/1', 'a/b/3', 'ab/4', 'b/5']) await store.put(key, Buffer.from(key))
      assert.deepEqual(await keysUnder(store, 'a/'), ['a/1', 'a/2', 'a/b/3'])
      assert.deepEqual(await keysUnder(store, ''), ['a/1', 'a/2', 'a/b/3', 'ab/4', 'b/5'])
      assert.deepEqual(await keysUnder(store, 'zz/'), [])
      const [first] = await (async () => { const all = []; for await (const o of store.list('a/b/')) all.push(o); return all })()
      assert.equal(first?.size, 5)
      assert.throws(() => store.list('a'), InvalidMediaKeyError)
      assert.throws(() => store.list('../'), InvalidMediaKeyError)
    })

    test('deletes everything under a prefix and nothing beside it', async (store) => {
      for (const key of ['asset1/u/chunk-000000', 'asset1/u/chunk-000001', 'asset1/hls/master.m3u8', 'asset10/original', 'asset2/original']) {
        await store.put(key, Buffer.from(key))
      }
      assert.equal(await store.deletePrefix('asset1/'), 3)
      assert.deepEqual(await keysUnder(store, ''), ['asset10/original', 'asset2/original'])
      assert.equal(await store.exists('asset1/hls/master.m3u8'), false)
      assert.equal(await store.deletePrefix('asset1/'), 0)
      await assert.rejects(store.deletePrefix(''), InvalidMediaKeyError)
      await assert.rejects(store.deletePrefix('asset2'), InvalidMediaKeyError)
      assert.deepEqual(await keysUnder(store, ''), ['asset10/original', 'asset2/original'])
      await store.delete('asset2/original')
      assert.deepEqual(await keysUnder(store, ''), ['asset10/original'])
    })

    test(`concatenates parts of 5 MiB and more in order (${options.concatStrategies.large})`, async (store) => {
      const parts = [patternBytes(5 * MiB, 11), patternBytes(5 * MiB + 3, 12), patternBytes(1024, 13)]
      for (const [index, part] of parts.entries()) await store.put(`up/chunk-00000${index}`, part)
      const result = await store.concat(['up/chunk-000000', { key: 'up/chunk-000001', size: parts[1]!.length }, 'up/chunk-000002'], 'media/original', { contentType: 'video/mp4' })
      assert.deepEqual(result, { size: 10 * MiB + 1027, strategy: options.concatStrategies.large })
      const object = await store.get('media/original')
      assert.equal(object.contentType, 'video/mp4')
      assert.equal((await sha256Of(object.body)).sha256, sha256(Buffer.concat(parts)))
    })

    test(`concatenates many 100 kB chunks in order (${options.concatStrategies.small})`, async (store) => {
      const parts = Array.from({ length: 25 }, (_, index) => patternBytes(index === 24 ? 777 : 100_000, 20 + index))
      const keys = parts.map((_, index) => `up/chunk-${String(index).padStart(6, '0')}`)
      for (const [index, part] of parts.entries()) await store.put(keys[index]!, part)
      const result = await store.concat(keys, 'media/original')
      assert.deepEqual(result, { size: 24 * 100_000 + 777, strategy: options.concatStrategies.small })
      assert.equal((await sha256Of((await store.get('media/original')).body)).sha256, sha256(Buffer.concat(parts)))
      assert.equal((await store.head('media/original')).contentType, 'application/octet-stream')
    })

    test('stores nothing when a part of a concat is missing', async (store, harness) => {
      await store.put('up/chunk-000000', Buffer.alloc(1000, 1))
      await assert.rejects(store.concat(['up/chunk-000000', 'up/chunk-000001'], 'media/original'),
        (error: unknown) => error instanceof MediaNotFoundError && error.key === 'up/chunk-000001')
      assert.equal(await store.exists('media/original'), false)
      await assert.rejects(store.concat([], 'media/original'), RangeError)
      assert.deepEqual(await harness.leftovers(), [])
    })

    test(`assembles parts put out of order and in parallel; a part put again replaces it (${options.concatStrategies.parts})`, async (store, harness) => {
      const sizes = [1 * MiB, 1 * MiB, 1 * MiB, 100_001]
      const offsets = sizes.map((_, index) => sizes.slice(0, index).reduce((sum, size) => sum + size, 0))
      const places = sizes.map((length, index) => ({ index, offset: offsets[index]!, length }))
      const parts = sizes.map((size, index) => patternBytes(size, 40 + index))
      const prefix = 'accounts/a1/assets/b1/uploads/u1/'
      await store.putPart(prefix, places[3]!, Readable.from([parts[3]!]))
      await store.putPart(prefix, places[1]!, Readable.from([patternBytes(sizes[1]!, 99)]))
      await Promise.all([0, 1, 2].map(async (index) => { await store.putPart(prefix, places[index]!, new PatternBody(sizes[index]!, 40 + index)) }))
      const result = await store.assemble(prefix, places, 'accounts/a1/assets/b1/originals/u1', { contentType: 'video/mp4' })
      assert.deepEqual(result, { size: 3 * MiB + 100_001, strategy: options.concatStrategies.parts })
      const object = await store.get('accounts/a1/assets/b1/originals/u1')
      assert.equal(object.contentType, 'video/mp4')
      assert.equal((await sha256Of(object.body)).sha256, sha256(Buffer.concat(parts)))
      assert.deepEqual(await keysUnder(store, 'accounts/a1/'), ['accounts/a1/assets/b1/originals/u1'], 'the parts are dropped once assembled')
      await assert.rejects(store.assemble(prefix, places, 'accounts/a1/assets/b1/originals/again'), MediaNotFoundError)
      assert.deepEqual(await harness.leftovers(), [])
    })

    test('refuses a part of another length, and drops the parts of an abandoned assembly', async (store, harness) => {
      const prefix = 'accounts/a1/assets/b2/uploads/u2/'
      await assert.rejects(store.putPart(prefix, { index: 0, offset: 0, length: 1000 }, Readable.from([Buffer.alloc(999, 1)])),
        (error: unknown) => error instanceof MediaSizeMismatchError && error.expected === 1000 && error.received === 999)
      await assert.rejects(store.putPart(prefix, { index: 1, offset: 1000, length: 1000 }, new PatternBody(1001, 7)), MediaSizeMismatchError)
      await assert.rejects(store.putPart(prefix, { index: 1, offset: 1000, length: 10 * MiB }, failingBody(1 * MiB)), /the client went away/)
      await store.putPart(prefix, { index: 0, offset: 0, length: 1000 }, Readable.from([Buffer.alloc(1000, 2)]))
      await store.discardParts(prefix)
      await store.discardParts(prefix)
      await assert.rejects(store.assemble(prefix, [{ index: 0, offset: 0, length: 1000 }], 'accounts/a1/assets/b2/originals/u2'), MediaNotFoundError)
      assert.equal(await store.exists('accounts/a1/assets/b2/originals/u2'), false)
      assert.deepEqual(await keysUnder(store, ''), [])
      assert.deepEqual(await harness.leftovers(), [])
    })

    test('downloads to and uploads from local files, leaving no partial file', async (store) => {
      const folder = await mkdtemp(join(tmpdir(), 'media-store-'))
      try {
        const bytes = patternBytes(3 * MiB + 17, 30)
        await writeFile(join(folder, 'input.mp4'), bytes)
        const put = await store.uploadFrom(join(folder, 'input.mp4'), 'job/original', 'video/mp4')
        assert.equal(put.size, bytes.length)
        assert.equal((await store.head('job/original')).contentType, 'video/mp4')
        assert.equal(await store.downloadTo('job/original', join(folder, 'copy.mp4')), bytes.length)
        assert.equal(sha256(await readFile(join(folder, 'copy.mp4'))), sha256(bytes))
        await assert.rejects(store.downloadTo('job/missing', join(folder, 'missing.mp4')), MediaNotFoundError)
        // The downloaded file is the job's own: a new version of the key, or its deletion, leaves it as it was.
        await store.put('job/original', Buffer.from('a new version'))
        assert.equal(sha256(await readFile(join(folder, 'copy.mp4'))), sha256(bytes))
        await store.delete('job/original')
        assert.equal(sha256(await readFile(join(folder, 'copy.mp4'))), sha256(bytes))
        await store.put('job/nested/object', Buffer.from('x'))
        await assert.rejects(store.downloadTo('job/nested', join(folder, 'nested.mp4')), MediaNotFoundError)
        await store.delete('job/nested/object')
        await assert.rejects(store.uploadFrom(join(folder, 'absent.mp4'), 'job/absent', 'video/mp4'), /ENOENT/)
        assert.deepEqual((await readdir(folder)).sort(), ['copy.mp4', 'input.mp4'])
        assert.equal(await store.exists('job/absent'), false)
      } finally {
        await rm(folder, { recursive: true, force: true })
      }
    })

    test('refuses keys that could escape the store, before touching anything', async (store) => {
      const folder = await mkdtemp(join(tmpdir(), 'media-store-'))
      const file = join(folder, 'f')
      await writeFile(file, 'x')
      const bad = ['../x', '../../etc/passwd', '/abs', 'a/../b', 'a/./b', 'a\u0000b', 'a\nb', 'a\u007fb', '', 'a//b', 'a/', '.hidden', 'a/.x', 'a\\b', 'a b', 'x'.repeat(1025)]
      try {
        for (const key of bad) {
          const calls = [
            () => store.put(key, Buffer.from('x')), () => store.get(key), () => store.head(key), () => store.exists(key),
            () => store.delete(key), () => store.concat([key], 'ok/target'), () => store.concat(['ok/source'], key),
            () => store.downloadTo(key, join(folder, 'out')), () => store.uploadFrom(file, key, 'text/plain')
          ]
          for (const call of calls) {
            await assert.rejects(call(), (error: unknown) => error instanceof InvalidMediaKeyError && error.code === 'media_key_invalid', JSON.stringify(key))
          }
        }
        assert.deepEqual(await keysUnder(store, ''), [])
        assert.deepEqual(await readdir(folder), ['f'])
      } finally {
        await rm(folder, { recursive: true, force: true })
      }
    })

    test('reports ready when it can write, read back and delete', async (store) => {
      assert.equal(await mediaStoreReadiness(store)(), 'ok')
      assert.deepEqual(await keysUnder(store, ''), [])
    })
  })
}
