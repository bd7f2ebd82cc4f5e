import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { makeScratchDir, makeVideo, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { finished, startStack, upload, type Stack } from '../e2e/support.ts'

/** MEDIA_WORKER_CONCURRENCY: one worker process runs several jobs at once (docs/media.md, "The queue you can see"). */
describe('a worker with MEDIA_WORKER_CONCURRENCY=2', { skip: mediaSkip }, () => {
  let stack: Stack
  let root: string
  before(async () => {
    root = await makeScratchDir()
    // The encoding runs read at real time, so the two jobs overlap whatever the machine's load.
    stack = await startStack(['api', 'worker'], { MEDIA_WORKER_CONCURRENCY: '2', MEDIA_TEST_PACING_PERCENT: '100' })
  })
  after(async () => {
    await stack?.close()
    await removeScratchDir(root)
  })

  it('runs two jobs at once, both held by the same worker', async () => {
    const clips = await Promise.all(['a', 'b'].map(async (name) => await makeVideo(join(root, `${name}.mp4`), { width: 320, height: 240, seconds: 4 })))
    const ids = [await upload(stack, clips[0] as string), await upload(stack, clips[1] as string)]
    let both: Array<{ lease_owner: string | null }> = []
    for (const end = Date.now() + 60_000; Date.now() < end;) {
      both = await stack.server.ctx.db.selectFrom('media_jobs').select(['lease_owner']).where('state', '=', 'running').execute()
      if (both.length === 2) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    assert.equal(both.length, 2, 'two jobs running at the same time')
    assert.equal(both[0]?.lease_owner, both[1]?.lease_owner, 'held by one worker process')
    for (const id of ids) assert.equal((await finished(stack, id)).status, 'live')
  })
})
