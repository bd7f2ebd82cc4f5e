import assert from 'node:assert/strict'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { mediaPrefix } from '../../../src/media/store/index.ts'
import { startCli, type CliProcess } from '../../support/cli.ts'
import { checkMedia, makeScratchDir, makeVideo, mediaSkip, processesIn, removeScratchDir } from '../../support/media-fixtures.ts'
import { finished, pathOf, startStack, upload, type Stack } from './support.ts'

/**
 * `kill -9` of a worker process (`reelhouse serve --role worker`) in the middle of a transcode: once its
 * lease runs out, a restarted worker takes the job again, and the asset ends live with one set of
 * renditions, the dead attempt's files gone.
 */
describe('a media worker killed mid-transcode', { skip: mediaSkip }, () => {
  let stack: Stack
  let root: string
  const workers: CliProcess[] = []
  before(async () => {
    root = await makeScratchDir()
    // The encoding run reads at real time, so the kill lands while it works, whatever the machine's load.
    stack = await startStack(['api', 'cdn'], { MEDIA_JOB_LEASE_SECONDS: '2', MEDIA_RETIRE_AFTER_SECONDS: '1', MEDIA_TEST_PACING_PERCENT: '100' })
  })
  after(async () => {
    for (const worker of workers) await worker.stop('SIGKILL')
    await stack?.close()
    await removeScratchDir(root)
  })

  async function startWorker (): Promise<CliProcess> {
    const worker = startCli(['serve', '--role', 'worker'], stack.env)
    workers.push(worker)
    await worker.waitFor(/^worker: media processing/)
    return worker
  }

  /** Polls the asset's streams until `ready` holds (a deadline only keeps a broken run from hanging). */
  async function streamsUntil (id: string, ready: (items: any[]) => boolean): Promise<any[]> {
    const end = Date.now() + 120_000
    for (;;) {
      const res = await stack.call('GET', `/v2/assets/${id}/streams`)
      if (ready(res.json.items)) return res.json.items
      if (Date.now() > end) assert.fail(`streams never got there: ${JSON.stringify(res.json.items)}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  it('ends live with one set of renditions after kill -9 and a restart', async () => {
    const source = await makeVideo(join(root, 'long.mp4'), { width: 1280, height: 720, seconds: 8 })
    const first = await startWorker()
    const id = await upload(stack, source)
    // The asset plays while a rendition is still being made: a complete copy beside the encoded 360p, or
    // (if the clip is not standard input) a rendition with its lead of 4 s published. Kill the worker there.
    await streamsUntil(id, (items) => items.some((s) => s.state === 'processing' || s.state === 'pending') &&
      (items.some((s) => s.state === 'ready') || items.some((s) => (s.duration_ms ?? 0) >= 4000)))
    // The asset's answer comes from the api process: it may show the worker's publication a moment later.
    let live = await stack.call('GET', `/v2/assets/${id}`)
    for (const end = Date.now() + 10_000; live.json.status !== 'live' && Date.now() < end;) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      live = await stack.call('GET', `/v2/assets/${id}`)
    }
    assert.equal(live.json.status, 'live')
    assert.equal(await first.stop('SIGKILL'), null)
    // Its ffmpeg dies with it (the kernel's parent-death signal): nothing keeps running in its work folder.
    const orphansGone = Date.now() + 1000
    let orphans = await processesIn(join(stack.dataDir, 'media-work'), { below: true })
    while (orphans.length > 0 && Date.now() < orphansGone) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      orphans = await processesIn(join(stack.dataDir, 'media-work'), { below: true })
    }
    assert.deepEqual(orphans, [], 'the killed worker\'s ffmpeg does not run on')

    await startWorker()
    // The job is settled by the worker that finished it: wait for that, not only for the asset's state.
    const job = await jobSettled(id)
    assert.deepEqual([job.state, Number(job.attempts)], ['done', 2])
    const asset = await finished(stack, id)
    assert.equal(asset.status, 'live')
    assert.equal(asset.stream_urls.iphone, live.json.stream_urls.iphone, 'the stream URLs stay the same')

    // The version the dead attempt published was served: it is retired, and goes after its retirement (1 s here).
    const { accountId } = await assetAccount(id)
    const media = `${mediaPrefix(accountId, id, 'x').slice(0, -2)}`
    const deadline = Date.now() + 30_000
    let keys: string[]
    let versions: Set<string>
    for (;;) {
      keys = []
      for await (const o of stack.server.ctx.services.mediaStore.list(media)) keys.push(o.key.slice(media.length))
      versions = new Set(keys.map((k) => k.split('/')[0]))
      if (versions.size === 1 || Date.now() > deadline) break
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    assert.equal(versions.size, 1, `one media version, found ${[...versions].join(', ')}`)
    const files = keys.map((k) => k.split('/').slice(1).join('/'))
    for (const file of ['preview.jpg', '360p/index.m3u8', '720p/index.m3u8']) {
      assert.equal(files.filter((f) => f === file).length, 1, `${file} in ${files.join(', ')}`)
    }
    const streams = await stack.call('GET', `/v2/assets/${id}/streams`)
    assert.deepEqual(streams.json.items.map((s: any) => [s.name, s.state]), [['360p', 'ready'], ['720p', 'ready']])
    const played = await checkMedia(stack.cdn + pathOf(asset.stream_urls.iphone))
    assert.ok(Math.abs(played.durationMs - (await checkMedia(source)).durationMs) <= 100)
    // The dead worker's work folder went when the next worker on this host started.
    const work = await readdir(join(stack.dataDir, 'media-work'))
    assert.ok(!work.some((name) => name.includes(`-${first.child.pid}-`)), work.join(', '))
  })

  async function jobSettled (id: string): Promise<{ state: string, attempts: number | string }> {
    const end = Date.now() + 300_000
    for (;;) {
      const job = await stack.server.ctx.db.selectFrom('media_jobs').select(['state', 'attempts']).where('asset_id', '=', id).executeTakeFirstOrThrow()
      if (job.state === 'done' || job.state === 'failed') return job
      if (Date.now() > end) assert.fail(`the job is still ${job.state}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  async function assetAccount (id: string): Promise<{ accountId: string }> {
    const row = await stack.server.ctx.db.selectFrom('assets').select('account_id').where('id', '=', id).executeTakeFirstOrThrow()
    return { accountId: row.account_id }
  }
})
