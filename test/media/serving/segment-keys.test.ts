import assert from 'node:assert/strict'
import { createDecipheriv } from 'node:crypto'
import { describe, it } from 'node:test'
import { renderMediaPlaylist } from '../../../src/media/processing/index.ts'
import { clipRange, cutMediaPlaylist } from '../../../src/media/serving/clip.ts'
import { contentKey, encryptSegment, KEY_ROTATION_SEGMENTS, keyLine, newVersionSecret } from '../../../src/media/encryption/index.ts'

/** The key rotation of AES-128 HLS (docs/playback.md, "Encryption"), read back as a player reads it. */
describe('AES-128 segment keys', () => {
  const secret = newVersionSecret()
  const segments = Array.from({ length: 23 }, (_, i) => ({ uri: `segment-${String(i).padStart(5, '0')}.ts`, durationSeconds: i < 2 ? 2 : 6 }))
  const keys = { every: KEY_ROTATION_SEGMENTS, line: keyLine }

  /** Decrypts each segment of a playlist with the key its last `#EXT-X-KEY` names and its sequence number as the IV. */
  function decryptAll (playlist: string, sealed: Map<string, Buffer>): Map<string, string> {
    const clear = new Map<string, string>()
    let sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1])
    let key: Buffer | undefined
    for (const line of playlist.split('\n')) {
      const uri = /^#EXT-X-KEY:METHOD=AES-128,URI="\.\.\/keys\/key-(\d{5})\.key"$/.exec(line)
      if (uri !== null) key = contentKey(secret, Number(uri[1]))
      if (!line.endsWith('.ts')) continue
      assert.ok(key !== undefined, `${line} has a key before it`)
      const iv = Buffer.alloc(16)
      iv.writeBigUInt64BE(BigInt(sequence), 8)
      const decipher = createDecipheriv('aes-128-cbc', key, iv)
      clear.set(line, Buffer.concat([decipher.update(sealed.get(line) as Buffer), decipher.final()]).toString())
      sequence += 1
    }
    return clear
  }

  const sealed = new Map(segments.map((s, i) => [s.uri, encryptSegment(Buffer.from(`clear ${s.uri}`), secret, i)]))

  it('opens every run of 10 segments with a new key, and each key opens its run only', () => {
    const playlist = renderMediaPlaylist(segments, 6, true, keys)
    assert.deepEqual([...playlist.matchAll(/key-(\d{5})\.key/g)].map((m) => m[1]), ['00000', '00001', '00002'])
    assert.match(playlist, /key-00001\.key"\n#EXTINF:6\.000000,\nsegment-00010\.ts/)
    const clear = decryptAll(playlist, sealed)
    assert.equal(clear.size, 23)
    for (const [uri, text] of clear) assert.equal(text, `clear ${uri}`)
    assert.notDeepEqual(contentKey(secret, 0), contentKey(secret, 1))
    assert.notDeepEqual(contentKey(secret, 0), contentKey(newVersionSecret(), 0))
    assert.doesNotMatch(renderMediaPlaylist(segments, 6, true), /EXT-X-KEY/, 'a clear version names no key')
  })

  it('keeps the key in force in an instant clip that starts inside a run, and the key that changes in it', () => {
    const full = renderMediaPlaylist(segments, 6, true, keys)
    // Segment 8 starts at 40 s; the cut runs into the second key's run.
    const cut = cutMediaPlaylist(full, clipRange({ start: '41', end: '80' }) as NonNullable<ReturnType<typeof clipRange>>)
    assert.match(cut, /#EXT-X-MEDIA-SEQUENCE:8\n/)
    assert.match(cut, /#EXT-X-KEY:METHOD=AES-128,URI="\.\.\/keys\/key-00000\.key"\n#EXTINF:6\.000000,\nsegment-00008\.ts/)
    assert.equal([...cut.matchAll(/EXT-X-KEY/g)].length, 2)
    const clear = decryptAll(cut, sealed)
    for (const [uri, text] of clear) assert.equal(text, `clear ${uri}`)
  })
})
