import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3'
import {
  MediaStoreUnavailableError, mediaStoreReadiness, openMediaStore, type MediaStore
} from '../../../src/media/store/index.ts'
import { createS3Client } from '../../../src/media/store/s3-client.ts'
import { S3MediaStore } from '../../../src/media/store/s3-media-store.ts'
import { dropBucket, openUploads, rawClient, s3Location, s3Skip, uniqueBucketUrl } from '../../support/rgw.ts'
import { failingBody, MiB, PatternBody, patternBytes, readAll, sha256, sha256Of } from './bodies.ts'
import { mediaStoreContract } from './store-contract.ts'

const skip = s3Skip()

mediaStoreContract('S3 (Ceph RGW)', {
  skip,
  concatStrategies: { large: 'part-copy', small: 'stream', parts: 'stream' },
  open: async () => {
    const url = uniqueBucketUrl()
    const store = await openMediaStore(url, { dataDir: '/nonexistent' })
    return {
      store,
      leftovers: async () => await openUploads(url),
      cleanup: async () => { await store.close(); await dropBucket(url) }
    }
  }
})

/** A store on a fresh bucket for one test; the bucket is dropped afterwards. */
async function withStore (body: (store: MediaStore, url: string) => Promise<void>, s3?: Parameters<typeof openMediaStore>[1]['s3']): Promise<void> {
  const url = uniqueBucketUrl()
  const store = await openMediaStore(url, { dataDir: '/nonexistent', s3 })
  try {
    await body(store, url)
  } finally {
    await store.close()
    await dropBucket(url)
  }
}

function withSecret (url: string, secret: string): string {
  const changed = new URL(url)
  changed.password = secret
  return changed.href
}

describe('S3 media store on Ceph RGW', () => {
  // Each test carries the skip, so without TEST_S3_URL every one of them is reported as skipped, with the reason.
  const options = { skip, timeout: 120_000 }

  it('refuses a client whose secret is wrong: the server checks signatures', options, async () => {
    await withStore(async (store, url) => {
      await store.put('signed/object', Buffer.from('genuine'))
      const forged = withSecret(url, 'not-the-secret-0123456789')
      await assert.rejects(openMediaStore(forged, { dataDir: '/nonexistent' }), (error: unknown) =>
        error instanceof MediaStoreUnavailableError && /HeadBucket .* failed: .*\(HTTP 403\)/.test(error.message) &&
        !error.message.includes('not-the-secret') && !error.message.includes(s3Location(url).secretAccessKey))

      const wrong = createS3Client(s3Location(forged))
      try {
        await assert.rejects(wrong.send(new PutObjectCommand({ Bucket: s3Location(url).bucket, Key: 'signed/object', Body: 'forged' })),
          (error: unknown) => (error as Error).name === 'SignatureDoesNotMatch')
        await assert.rejects(wrong.send(new GetObjectCommand({ Bucket: s3Location(url).bucket, Key: 'signed/object' })),
          (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 403)
      } finally {
        wrong.destroy()
      }
      assert.equal((await readAll((await store.get('signed/object')).body)).toString(), 'genuine')
    })
  })

  it('refuses unsigned requests', options, async () => {
    await withStore(async (store, url) => {
      await store.put('open/object', Buffer.from('private'))
      const { endpoint, bucket } = s3Location(url)
      const read = await fetch(`${endpoint}/${bucket}/open/object`)
      assert.equal(read.status, 403)
      await read.arrayBuffer()
      const write = await fetch(`${endpoint}/${bucket}/open/object`, { method: 'PUT', body: 'overwritten' })
      assert.equal(write.status, 403)
      await write.arrayBuffer()
      assert.equal((await readAll((await store.get('open/object')).body)).toString(), 'private')
    })
  })

  it('streams parts through when one of them is under 5 MiB, and copies them inside the store when none is', options, async () => {
    await withStore(async (store) => {
      const small = [patternBytes(5 * MiB - 1, 40), patternBytes(5 * MiB, 41), patternBytes(10, 42)]
      for (const [index, part] of small.entries()) await store.put(`p/${index}`, part)
      assert.equal((await store.concat(['p/0', 'p/1', 'p/2'], 'p/streamed')).strategy, 'stream')
      assert.equal((await sha256Of((await store.get('p/streamed')).body)).sha256, sha256(Buffer.concat(small)))
      // The same short part last: every part before it is 5 MiB, so S3 may copy them.
      assert.equal((await store.concat(['p/1', 'p/1', 'p/0'], 'p/copied')).strategy, 'part-copy')
      assert.equal((await sha256Of((await store.get('p/copied')).body)).sha256, sha256(Buffer.concat([small[1]!, small[1]!, small[0]!])))
      await store.put('p/empty', Buffer.alloc(0))
      assert.deepEqual(await store.concat(['p/1', 'p/empty'], 'p/with-empty'), { size: 5 * MiB, strategy: 'stream' })
    })
  })

  it('sends objects over the single-request limit in parts, declared length included', options, async () => {
    await withStore(async (store, url) => {
      const body = new PatternBody(12 * MiB, 50)
      assert.equal((await store.put('big/declared', body, { contentLength: 12 * MiB })).size, 12 * MiB)
      assert.equal((await sha256Of((await store.get('big/declared')).body)).sha256, body.sha256)
      await assert.rejects(store.put('big/short', new PatternBody(12 * MiB - 1, 51), { contentLength: 12 * MiB }), /Expected 12582912 bytes/)
      assert.equal(await store.exists('big/short'), false)
      assert.deepEqual(await openUploads(url), [])

      const parts = [patternBytes(3 * MiB, 52), patternBytes(3 * MiB, 53)]
      await store.put('big/0', parts[0]!)
      await store.put('big/1', parts[1]!)
      assert.deepEqual(await store.concat(['big/0', 'big/1'], 'big/joined'), { size: 6 * MiB, strategy: 'stream' })
      assert.equal((await sha256Of((await store.get('big/joined')).body)).sha256, sha256(Buffer.concat(parts)))
    }, { maxSinglePut: 5 * MiB, partSize: 5 * MiB })
  })

  it('leaves no multipart upload behind when a body in parts fails', options, async () => {
    await withStore(async (store, url) => {
      await assert.rejects(store.put('fail/parts', failingBody(20 * MiB)), /the client went away/)
      assert.deepEqual(await openUploads(url), [])
      assert.equal(await store.exists('fail/parts'), false)
    })
  })

  it('keeps keys under the prefix the URL names, and lists them without it', options, async () => {
    const url = uniqueBucketUrl()
    const prefixed = `${url}/tenant-a/media`
    const store = await openMediaStore(prefixed, { dataDir: '/nonexistent' })
    const { client, bucket } = rawClient(url)
    try {
      await store.put('x/y', Buffer.from('1'))
      const raw = await client.send(new ListObjectsV2Command({ Bucket: bucket }))
      assert.deepEqual(raw.Contents?.map((object) => object.Key), ['tenant-a/media/x/y'])
      const keys: string[] = []
      for await (const object of store.list('')) keys.push(object.key)
      assert.deepEqual(keys, ['x/y'])
      await store.put('x/z', Buffer.from('2'))
      assert.deepEqual(await store.concat(['x/y', 'x/z'], 'x/yz'), { size: 2, strategy: 'stream' })
      assert.equal(await store.deletePrefix('x/'), 3)
      assert.equal(store.description, `S3 bucket ${bucket} under tenant-a/media/ at ${s3Location(url).endpoint}`)
    } finally {
      client.destroy()
      await store.close()
      await dropBucket(url)
    }
  })

  it('creates a missing bucket, or refuses to when told not to', options, async () => {
    const url = uniqueBucketUrl()
    const location = s3Location(url)
    await assert.rejects(S3MediaStore.open(location, { createBucket: false }), (error: unknown) =>
      error instanceof MediaStoreUnavailableError && error.message.includes(`HeadBucket on bucket ${location.bucket}`))
    const store = await S3MediaStore.open(location)
    const { client, bucket } = rawClient(url)
    try {
      await client.send(new HeadBucketCommand({ Bucket: bucket }))
      const again = await S3MediaStore.open(location)
      await again.close()
    } finally {
      client.destroy()
      await store.close()
      await dropBucket(url)
    }
  })

  it('reports not ready, naming the failure and no secret, when the bucket is gone', options, async () => {
    const url = uniqueBucketUrl()
    const store = await openMediaStore(url, { dataDir: '/nonexistent' })
    try {
      await dropBucket(url)
      await assert.rejects(mediaStoreReadiness(store)(), (error: unknown) =>
        error instanceof MediaStoreUnavailableError && /PutObject on t-[^ ]+ failed: NoSuchBucket \(HTTP 404\)/.test(error.message) &&
        !error.message.includes(s3Location(url).secretAccessKey))
    } finally {
      await store.close()
    }
  })

  it('answers ready through the readiness check', options, async () => {
    await withStore(async (store) => {
      assert.equal(await mediaStoreReadiness(store)(), 'ok')
    })
  })
})
