import assert from 'node:assert/strict'
import { createReadStream, existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { describe, it } from 'node:test'
import { FileMediaStore, MediaKeyConflictError, MediaNotFoundError, MediaSizeMismatchError, openMediaStore } from '../../../src/media/store/index.ts'
import { failingBody, MiB, patternBytes, readAll, sha256 } from './bodies.ts'
import { mediaStoreContract } from './store-contract.ts'

async function scratch (): Promise<string> {
  return await mkdtemp(join(tmpdir(), 'file-store-'))
}

mediaStoreContract('files', {
  skip: false,
  concatStrategies: { large: 'append', small: 'append', parts: 'in-place' },
  open: async () => {
    const folder = await scratch()
    const root = join(folder, 'media')
    const store = await FileMediaStore.open(root)
    return {
      store,
      leftovers: async () => [...await readdir(join(root, 'tmp')), ...await readdir(join(root, 'parts'), { recursive: true })],
      cleanup: async () => { await store.close(); await rm(folder, { recursive: true, force: true }) }
    }
  }
})

describe('file media store', () => {
  it('streams a part of unknown length to its offset: keeps what a short body brought, refuses one past the limit', async () => {
    const folder = await scratch()
    const store = await FileMediaStore.open(join(folder, 'media'))
    try {
      const prefix = 'accounts/a1/assets/b1/uploads/u1/'
      const whole = patternBytes(3 * MiB, 5)
      // A body that ends early (a client gone mid-PATCH): what it brought is written and counted.
      assert.equal(await store.streamPartAt(prefix, 0, Readable.from([whole.subarray(0, MiB + 17)]), whole.length), MiB + 17)
      await assert.rejects(store.streamPartAt(prefix, MiB + 17, Readable.from([whole.subarray(MiB + 17)]), MiB), MediaSizeMismatchError)
      await assert.rejects(store.streamPartAt(prefix, MiB + 17, failingBody(1000), whole.length), /the client went away/)
      assert.equal(await store.streamPartAt(prefix, MiB + 17, Readable.from([whole.subarray(MiB + 17, 2 * MiB), whole.subarray(2 * MiB)]), whole.length - MiB - 17), whole.length - MiB - 17)
      const places = [{ index: 0, offset: 0, length: MiB + 17 }, { index: 1, offset: MiB + 17, length: whole.length - MiB - 17 }]
      assert.deepEqual(await store.assemble(prefix, places, 'accounts/a1/assets/b1/originals/u1'), { size: whole.length, strategy: 'in-place' })
      assert.equal(sha256(await readAll((await store.get('accounts/a1/assets/b1/originals/u1')).body)), sha256(whole))
    } finally {
      await store.close()
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('destroys a part\'s body when the file it goes into cannot be opened, so a file stream given as the body closes', async () => {
    const folder = await scratch()
    const store = await FileMediaStore.open(join(folder, 'media'))
    try {
      const source = join(folder, 'spooled-part')
      await writeFile(source, patternBytes(1000, 3))
      // A file where the upload's folder of parts would be: the folder cannot be made.
      await mkdir(join(folder, 'media', 'parts', 'accounts', 'a1', 'assets', 'b1', 'uploads'), { recursive: true })
      await writeFile(join(folder, 'media', 'parts', 'accounts', 'a1', 'assets', 'b1', 'uploads', 'u1'), 'in the way')
      const prefix = 'accounts/a1/assets/b1/uploads/u1/'
      const put = createReadStream(source)
      await assert.rejects(store.putPart(prefix, { index: 0, offset: 0, length: 1000 }, put))
      assert.equal(put.destroyed, true, 'putPart gave the body up')
      const streamed = createReadStream(source)
      await assert.rejects(store.streamPartAt(prefix, 0, streamed, 1000))
      assert.equal(streamed.destroyed, true, 'streamPartAt gave the body up')
    } finally {
      await store.close()
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('keeps media in <dataDir>/media when MEDIA_STORE_URL is unset, and in the folder a file: URL names', async () => {
    const folder = await scratch()
    try {
      const byDefault = await openMediaStore(undefined, { dataDir: folder })
      await byDefault.put('a/b', Buffer.from('hello'))
      assert.ok(existsSync(join(folder, 'media', 'objects', 'a', 'b')))
      assert.equal(byDefault.description, `files in ${join(folder, 'media')}`)
      const named = await openMediaStore(`file://${join(folder, 'elsewhere')}`, { dataDir: folder })
      await named.put('c', Buffer.from('x'))
      assert.ok(existsSync(join(folder, 'elsewhere', 'objects', 'c')))
      assert.equal(named.kind, 'file')
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('refuses a key that is an object and a prefix at once', async () => {
    const folder = await scratch()
    try {
      const store = await FileMediaStore.open(folder)
      await store.put('a/b', Buffer.from('object'))
      await assert.rejects(store.put('a/b/c', Buffer.from('x')), MediaKeyConflictError)
      await store.put('d/e/f', Buffer.from('deep'))
      await assert.rejects(store.put('d/e', Buffer.from('x')), MediaKeyConflictError)
      await assert.rejects(store.get('d/e'), MediaNotFoundError)
      await assert.rejects(store.head('d'), MediaNotFoundError)
      assert.equal(await store.exists('d/e'), false)
      assert.equal((await readAll((await store.get('a/b')).body)).toString(), 'object')
      assert.deepEqual(await readdir(join(folder, 'tmp')), [])
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('removes folders that deleting left empty, and keeps the others', async () => {
    const folder = await scratch()
    try {
      const store = await FileMediaStore.open(folder)
      await store.put('x/y/z', Buffer.from('1'), { contentType: 'text/plain' })
      await store.put('x/w', Buffer.from('2'))
      await store.delete('x/y/z')
      assert.equal(existsSync(join(folder, 'objects', 'x', 'y')), false)
      assert.equal(existsSync(join(folder, 'types', 'x', 'y')), false)
      assert.ok(existsSync(join(folder, 'objects', 'x', 'w')))
      await store.deletePrefix('x/')
      assert.deepEqual(await readdir(join(folder, 'objects')), [])
      assert.deepEqual(await readdir(join(folder, 'tmp')), [])
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('clears temporary files a crashed writer left a day ago, and not those of writers still running', async () => {
    const folder = await scratch()
    try {
      await FileMediaStore.open(folder)
      const old = join(folder, 'tmp', 'old-write')
      const fresh = join(folder, 'tmp', 'fresh-write')
      await writeFile(old, 'partial')
      await writeFile(fresh, 'partial')
      const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000)
      await utimes(old, twoDaysAgo, twoDaysAgo)
      await FileMediaStore.open(folder)
      assert.deepEqual(await readdir(join(folder, 'tmp')), ['fresh-write'])
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('lists only files whose names are valid keys', async () => {
    const folder = await scratch()
    try {
      const store = await FileMediaStore.open(folder)
      await store.put('k/ok', Buffer.from('1'))
      await mkdir(join(folder, 'objects', 'k'), { recursive: true })
      await writeFile(join(folder, 'objects', 'k', '.DS_Store'), 'x')
      await writeFile(join(folder, 'objects', 'k', 'with space'), 'x')
      const keys: string[] = []
      for await (const object of store.list('k/')) keys.push(object.key)
      assert.deepEqual(keys, ['k/ok'])
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })
})
