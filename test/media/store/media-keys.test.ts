import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  assetPrefix, checkKey, checkPrefix, InvalidMediaKeyError, isValidKey, mediaPrefix, newMediaVersion, partKey, uploadPrefix
} from '../../../src/media/store/index.ts'

describe('media keys', () => {
  it('accepts relative paths of plain segments', () => {
    for (const key of ['a', 'accounts/1f2e/assets/9a/media/AbC-_x/hls/720p/segment-00001.ts', 'x.y', '_a/-b', 'a'.repeat(255)]) {
      assert.equal(checkKey(key), key)
    }
  })

  const refused: Array<[string, RegExp]> = [
    ['', /not empty/],
    ['../x', /"\." and "\.\." segments/],
    ['a/..', /"\." and "\.\." segments/],
    ['/etc/passwd', /relative/],
    ['a/', /does not end with/],
    ['a//b', /empty path segments/],
    ['a\u0000b', /control characters/],
    ['a\tb', /control characters/],
    ['.env', /do not start with "\."/],
    ['a\\..\\b', /segments use only/],
    ['é', /segments use only/],
    ['a?b', /segments use only/],
    ['a'.repeat(256), /at most 255 characters/],
    ['a/'.repeat(600) + 'a', /at most 1024 characters/]
  ]
  for (const [key, reason] of refused) {
    it(`refuses ${JSON.stringify(key.length > 40 ? key.slice(0, 20) + '…' : key)} saying why`, () => {
      assert.throws(() => checkKey(key), (error: unknown) => error instanceof InvalidMediaKeyError && reason.test(error.message) && error.key === key)
      assert.equal(isValidKey(key), false)
    })
  }

  it('takes prefixes that end in "/", and "" only where allowed', () => {
    assert.equal(checkPrefix('a/b/', { allowEmpty: false }), 'a/b/')
    assert.equal(checkPrefix('', { allowEmpty: true }), '')
    assert.throws(() => checkPrefix('', { allowEmpty: false }), InvalidMediaKeyError)
    assert.throws(() => checkPrefix('a', { allowEmpty: true }), InvalidMediaKeyError)
    assert.throws(() => checkPrefix('../', { allowEmpty: true }), InvalidMediaKeyError)
    assert.throws(() => checkPrefix('/', { allowEmpty: true }), InvalidMediaKeyError)
  })

  it('lays out an asset account first, with chunks in index order and an unguessable media version', () => {
    assert.equal(assetPrefix('acc1', 'asset9'), 'accounts/acc1/assets/asset9/')
    assert.equal(uploadPrefix('acc1', 'asset9', 'up1'), 'accounts/acc1/assets/asset9/uploads/up1/')
    assert.equal(partKey(uploadPrefix('acc1', 'asset9', 'up1'), 0), 'accounts/acc1/assets/asset9/uploads/up1/chunk-000000')
    assert.equal(partKey(uploadPrefix('acc1', 'asset9', 'up1'), 19_999), 'accounts/acc1/assets/asset9/uploads/up1/chunk-019999')
    const keys = [10, 9, 100, 1].map((index) => partKey('a/b/c/', index)).sort()
    assert.deepEqual(keys.map((key) => key.slice(-6)), ['000001', '000009', '000010', '000100'])
    const version = newMediaVersion()
    assert.match(version, /^[A-Za-z0-9_-]{22}$/)
    assert.notEqual(newMediaVersion(), version)
    assert.equal(mediaPrefix('acc1', 'asset9', version), `accounts/acc1/assets/asset9/media/${version}/`)
    assert.equal(isValidKey(`${mediaPrefix('acc1', 'asset9', version)}hls/master.m3u8`), true)
  })

  it('refuses ids that are not one key segment, and chunk indexes out of range', () => {
    assert.throws(() => assetPrefix('../x', 'a'), InvalidMediaKeyError)
    assert.throws(() => assetPrefix('a', 'b/c'), InvalidMediaKeyError)
    assert.throws(() => uploadPrefix('a', 'b', ''), InvalidMediaKeyError)
    assert.throws(() => mediaPrefix('a', 'b', '.v'), InvalidMediaKeyError)
    assert.throws(() => partKey('a/b/c', 0), InvalidMediaKeyError)
    for (const index of [-1, 1.5, 1_000_000, Number.NaN]) assert.throws(() => partKey('a/b/c/', index), InvalidMediaKeyError)
  })
})
