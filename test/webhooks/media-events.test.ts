import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../support/media-fixtures.ts'
import { finished, startStack, upload, type Stack } from '../media/e2e/support.ts'
import { Receiver } from './support/receiver.ts'

/**
 * The events of media processing, delivered by the worker role to a real receiver that verifies each
 * with `standardwebhooks`: an upload that completes, becomes playable, has its renditions made one by
 * one and is then ready; and one whose file is no media, which errors.
 */
describe('webhook events of media processing', { skip: mediaSkip, timeout: 120_000 }, () => {
  let stack: Stack
  let root: string
  let receiver: Receiver
  before(async () => {
    root = await makeScratchDir()
    stack = await startStack(['api', 'cdn', 'worker'], { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_ALLOW_HTTP: 'true' })
    receiver = await Receiver.start([])
    const hook = await stack.call('POST', '/v2/webhooks', { url: receiver.url })
    assert.equal(hook.status, 200, JSON.stringify(hook.json))
    receiver.secrets = [hook.json.secret]
  })
  after(async () => {
    await receiver?.close()
    await stack?.close()
    await removeScratchDir(root)
  })

  const eventsOf = (id: string): Array<{ type: string, data: any }> => receiver.received.map((d) => JSON.parse(d.body)).filter((e) => (e.data.embed_code as string) === id)

  it('asset.upload.completed, asset.playable, asset.rendition.ready per rendition, then asset.ready with the whole ladder', async () => {
    const id = await upload(stack, await makeVideo(join(root, 'clip.mp4'), { width: 640, height: 360, seconds: 2 }))
    const asset = await finished(stack, id)
    assert.equal(asset.status, 'live', asset.processing_error)
    // No ordering promise: wait for each type (a missing one fails the test by its timeout).
    const expected = ['asset.created', 'asset.updated', 'asset.upload.completed', 'asset.playable', 'asset.rendition.ready', 'asset.ready']
    await receiver.until(() => expected.every((type) => eventsOf(id).some((e) => e.type === type)))
    assert.deepEqual(receiver.rejected, [])
    const events = eventsOf(id)
    const types = new Set(events.map((e) => e.type))
    assert.equal(events.find((e) => e.type === 'asset.upload.completed')?.data.status, 'processing')
    assert.equal(events.find((e) => e.type === 'asset.playable')?.data.status, 'live')
    // One event per rendition, each as GET /streams shows it once ready.
    const streams = (await stack.call('GET', `/v2/assets/${id}/streams`)).json.items as Array<{ name: string, url: string }>
    await receiver.until(() => eventsOf(id).filter((e) => e.type === 'asset.rendition.ready').length >= streams.length)
    const renditions = eventsOf(id).filter((e) => e.type === 'asset.rendition.ready')
    assert.deepEqual(renditions.map((e) => e.data.rendition.name).sort(), streams.map((s) => s.name).sort())
    for (const e of renditions) {
      assert.equal(e.data.rendition.state, 'ready')
      assert.equal(e.data.rendition.percent, 100)
      assert.equal(e.data.rendition.url, streams.find((s) => s.name === e.data.rendition.name)?.url)
    }
    const ready = events.filter((e) => e.type === 'asset.ready')
    assert.equal(ready.length, 1, 'the whole ladder is made once')
    assert.equal(ready[0]?.data.processing_progress, 100)
    assert.ok(ready[0]?.data.duration > 0)
    assert.ok(!types.has('asset.errored'))
  })

  it('asset.errored when the file is no media, with the reason', async () => {
    const file = join(root, 'not-media.mp4')
    await writeFile(file, Buffer.alloc(70_000, 'not a video '))
    const id = await upload(stack, file)
    const asset = await finished(stack, id)
    assert.equal(asset.status, 'error')
    await receiver.until(() => eventsOf(id).some((e) => e.type === 'asset.errored'))
    const errored = eventsOf(id).find((e) => e.type === 'asset.errored')
    assert.equal(errored?.data.status, 'error')
    assert.equal(errored?.data.processing_error, asset.processing_error)
    assert.ok(!eventsOf(id).some((e) => ['asset.playable', 'asset.ready', 'asset.rendition.ready'].includes(e.type)))
  })
})
