import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmod, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { chooseCaptionEngine, type CaptionEngineChoice } from '../../../src/media/captions/index.ts'
import { locateMediaTools } from '../../../src/media/processing/index.ts'
import { startMediaWorker } from '../../../src/media/worker/index.ts'
import { buildTestApp, type TestApp } from '../../support/app.ts'
import { itAnswersEachRow, type BadInputRow } from '../../support/bad-input.ts'
import { makeScratchDir, mediaSkip, removeScratchDir } from '../../support/media-fixtures.ts'
import { remoteAsset } from '../../assets/support/assets.ts'
import { chunkUrls, createUpload, PUBLIC_API_URL, putChunk, setUploadStatus } from '../uploads/support.ts'

const SENTENCE = 'Welcome to the video library. Today we talk about the weather in London and the price of coffee.'
const WORDS = ['welcome', 'video', 'library', 'today', 'talk', 'about', 'weather', 'london', 'price', 'coffee']
const POCKETSPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us'

const espeakSkip = spawnSync('espeak-ng', ['--version'], { stdio: 'ignore' }).status === 0 ? false : 'needs espeak-ng (Debian: apt install espeak-ng)'
const pocketsphinx = chooseCaptionEngine({ whisperBin: undefined, whisperModel: undefined, pocketsphinxModel: POCKETSPHINX_MODEL })
const pocketsphinxSkip = mediaSkip || espeakSkip || (pocketsphinx.name === 'off' ? pocketsphinx.reason : false)

/** The sentence spoken by espeak-ng, as an MP3 (an audio upload), and its bytes. */
async function spokenClip (dir: string): Promise<Buffer> {
  const wav = join(dir, 'speech.wav')
  const mp3 = join(dir, 'speech.mp3')
  assert.equal(spawnSync('espeak-ng', ['-w', wav, SENTENCE]).status, 0)
  assert.equal(spawnSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', wav, '-c:a', 'libmp3lame', '-b:a', '64k', mp3]).status, 0)
  return await readFile(mp3)
}

/** An asset whose original is `bytes`, uploaded through the chunk protocol (its processing job queued). */
async function uploadedAsset (t: TestApp, bytes: Buffer, generateCaptions?: string[]): Promise<string> {
  const created = generateCaptions === undefined
    ? undefined
    : await t.signed('POST', '/v2/assets', { body: { asset_type: 'audio', name: 'Spoken', file_name: 'speech.mp3', file_size: bytes.length, generate_captions: generateCaptions } })
  if (created !== undefined) assert.equal(created.statusCode, 200, created.body)
  const id = created === undefined ? await createUpload(t, bytes.length) : created.json().embed_code as string
  const [url] = await chunkUrls(t, id)
  assert.equal((await putChunk(t, url as string, bytes)).statusCode, 200)
  assert.equal((await setUploadStatus(t, id, { status: 'uploaded' })).statusCode, 200)
  return id
}

interface Track { language: string, auto_generated: boolean, engine: string | null, format: string, url: string | null }

/** Runs a media worker with `engine` until every job of the asset has ended (processing and captions), then answers its `language` track. */
async function trackOnceWorked (t: TestApp, id: string, language: string, engine: CaptionEngineChoice, workDir: string): Promise<Track> {
  const worker = await startMediaWorker({
    database: t.ctx.database, store: t.ctx.services.mediaStore, tools: await locateMediaTools({ env: process.env }), assets: t.ctx.services.assetMedia, workDir,
    captions: { engine, sink: t.ctx.services.captions }
  }, { pollMs: 20 })
  try {
    const deadline = Date.now() + 90_000
    for (;;) {
      const jobs = await t.ctx.db.selectFrom('media_jobs').select(['kind', 'state', 'error']).where('asset_id', '=', id).execute()
      if (jobs.some((job) => job.kind === 'captions') && jobs.every((job) => job.state === 'done' || job.state === 'failed')) {
        assert.deepEqual(jobs.map((job) => job.error), jobs.map(() => null), 'every job ended without an error')
        break
      }
      assert.ok(Date.now() < deadline, 'the jobs ended')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  } finally { await worker.stop() }
  const tracks = (await t.signed('GET', `/v2/assets/${id}/captions`)).json() as Track[]
  const track = tracks.find((one) => one.language === language)
  assert.ok(track !== undefined, `a ${language} track: ${JSON.stringify(tracks)}`)
  return track
}

function cuesOf (vtt: string): Array<{ startMs: number, endMs: number, text: string }> {
  const ms = (value: string): number => {
    const [h, m, s] = value.split(':').map(Number) as [number, number, number]
    return Math.round(((h * 60 + m) * 60 + s) * 1000)
  }
  return vtt.split('\n\n').slice(1).filter((block) => block.includes('-->')).map((block) => {
    const [timing = '', ...text] = block.split('\n')
    const [start = '', end = ''] = timing.split(' --> ')
    return { startMs: ms(start), endMs: ms(end), text: text.join(' ').trim() }
  })
}

describe('generated captions', { skip: mediaSkip || espeakSkip }, () => {
  let dir: string
  let clip: Buffer
  before(async () => {
    dir = await makeScratchDir('reelhouse-captions-')
    clip = await spokenClip(dir)
  })
  after(async () => { await removeScratchDir(dir) })

  it('pocketsphinx transcribes espeak-ng speech (generate_captions at upload) into an auto-generated track whose cues lie inside the clip, with a word of the sentence heard', { skip: pocketsphinxSkip }, async () => {
    const t = await buildTestApp('sqlite', { CAPTIONS_POCKETSPHINX_MODEL: POCKETSPHINX_MODEL, PUBLIC_API_URL })
    try {
      const id = await uploadedAsset(t, clip, ['en-us', 'en-US'])
      const jobs = await t.ctx.db.selectFrom('media_jobs').select(['kind', 'language']).where('asset_id', '=', id).orderBy('kind').execute()
      assert.deepEqual(jobs, [{ kind: 'captions', language: 'en-US' }, { kind: 'ingest', language: null }], 'queued with the upload\'s completion, once a language')
      const track = await trackOnceWorked(t, id, 'en-US', pocketsphinx, join(dir, 'work-ps'))
      const { url, ...rest } = track
      assert.deepEqual({ ...rest, created_at: undefined }, { language: 'en-US', name: 'American English (auto-generated)', format: 'webvtt', auto_generated: true, engine: 'pocketsphinx', created_at: undefined })
      const token = ((await t.signed('GET', `/v2/assets/${id}`)).json() as { stream_urls: { iphone: string } }).stream_urls.iphone.split('/media/')[1]?.split('/')[0]
      assert.equal(url, `${PUBLIC_API_URL}/media/${token}/captions/en-US/track.vtt`)
      // The track is a public media file: no signature, the media token is the credential.
      const served = await t.app.inject({ method: 'GET', url: new URL(url as string).pathname.replace('en-US', 'en-us') })
      assert.equal(served.statusCode, 200)
      assert.match(served.headers['content-type'] as string, /^text\/vtt/)
      assert.equal(served.body, (await t.signed('GET', `/v2/assets/${id}/captions/en-US`)).body)
      assert.equal((await t.app.inject({ method: 'GET', url: `/media/${token}/captions/fr/track.vtt` })).statusCode, 404, 'a language the asset lacks')
      const durationMs = Number(spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', join(dir, 'speech.mp3')]).stdout.toString()) * 1000
      const cues = cuesOf((await t.signed('GET', `/v2/assets/${id}/captions/en-US`)).body)
      assert.ok(cues.length >= 1, 'at least one cue')
      for (const cue of cues) assert.ok(cue.startMs >= 0 && cue.startMs < cue.endMs && cue.endMs <= durationMs + 1, `${JSON.stringify(cue)} inside ${durationMs} ms`)
      const heard = cues.flatMap((cue) => cue.text.toLowerCase().split(/\W+/))
      assert.ok(WORDS.some((word) => heard.includes(word)), `a word of the sentence among "${heard.join(' ')}"`)
      const ready = await t.ctx.db.selectFrom('webhook_events').select('data').where('type', '=', 'asset.captions.ready').execute()
      assert.deepEqual(ready.map((event) => (JSON.parse(event.data) as { embed_code: string }).embed_code), [id], 'asset.captions.ready once the worker stored the track')
    } finally { await t.close() }
  })

  it('whisper runs the operator\'s executable with the model, the 16 kHz WAV, the language and WebVTT out, and an uploaded track is never replaced by a generated one', async () => {
    const bin = join(dir, 'whisper-stand-in.sh')
    const argsFile = join(dir, 'whisper-args.txt')
    // Records its arguments and the WAV's header, and writes the WebVTT whisper.cpp would (to <--output-file>.vtt).
    await writeFile(bin, `#!/bin/sh
printf '%s\\n' "$@" > '${argsFile}'
out=''; wav=''
while [ $# -gt 0 ]; do
  case "$1" in --output-file) out="$2"; shift ;; --file) wav="$2"; shift ;; esac
  shift
done
head -c 44 "$wav" | od -An -tu4 -j24 -N4 | tr -d ' ' >> '${argsFile}'
printf 'WEBVTT\\n\\n00:00:00.500 --> 00:00:02.000\\nBienvenue\\n\\n00:00:02.000 --> 00:00:59.000\\nle prix du cafe\\n' > "$out.vtt"
`)
    await chmod(bin, 0o755)
    const model = join(dir, 'ggml-stand-in.bin')
    await writeFile(model, 'not a model')
    const t = await buildTestApp('sqlite', { CAPTIONS_WHISPER_BIN: bin, CAPTIONS_WHISPER_MODEL: model })
    try {
      const id = await uploadedAsset(t, clip)
      const queued = await t.signed('POST', `/v2/assets/${id}/captions/generate`, { body: { language: 'fr-CA' } })
      assert.equal(queued.statusCode, 202, queued.body)
      assert.equal(queued.json().engine, 'whisper')
      const whisper = chooseCaptionEngine({ whisperBin: bin, whisperModel: model, pocketsphinxModel: POCKETSPHINX_MODEL })
      const track = await trackOnceWorked(t, id, 'fr-CA', whisper, join(dir, 'work-w1'))
      assert.equal(track.engine, 'whisper')
      assert.equal(track.auto_generated, true)
      const args = (await readFile(argsFile, 'utf8')).trim().split('\n')
      assert.equal(args.length, 11, args.join(' '))
      assert.deepEqual([args[0], args[1], args[2]], ['--model', model, '--file'])
      assert.match(args[3] as string, /\/speech\.wav$/)
      assert.deepEqual(args.slice(4, 8), ['--language', 'fr', '--output-vtt', '--output-file'])
      assert.match(args[8] as string, /\/whisper$/)
      assert.deepEqual(args.slice(9), ['--no-prints', '16000'], 'and the WAV is 16 kHz')
      const durationMs = Number(spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', join(dir, 'speech.mp3')]).stdout.toString()) * 1000
      const cues = cuesOf((await t.signed('GET', `/v2/assets/${id}/captions/fr-CA`)).body)
      assert.deepEqual(cues.map((cue) => cue.text), ['Bienvenue', 'le prix du cafe'])
      assert.ok((cues[1]?.endMs ?? 0) <= durationMs + 1, 'the last cue is cut at the end of the media')

      const uploaded = await t.signed('PUT', `/v2/assets/${id}/captions/fr-CA`, { body: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nSous-titres\n' })
      assert.equal(uploaded.json().auto_generated, false, 'an upload replaces the generated track')
      assert.equal((await t.signed('POST', `/v2/assets/${id}/captions/generate`, { body: { language: 'fr-CA' } })).statusCode, 202)
      const kept = await trackOnceWorked(t, id, 'fr-CA', whisper, join(dir, 'work-w2'))
      assert.equal(kept.auto_generated, false, 'the generated track did not replace the upload')
      assert.equal(cuesOf((await t.signed('GET', `/v2/assets/${id}/captions/fr-CA`)).body)[0]?.text, 'Sous-titres')
    } finally { await t.close() }
  })
})

describe('POST /v2/assets/:id/captions/generate, bad requests', () => {
  let t: TestApp
  let off: TestApp
  let remote: string
  before(async () => {
    t = await buildTestApp('sqlite', { CAPTIONS_POCKETSPHINX_MODEL: join(import.meta.dirname, 'no-model-here') })
    off = t
    remote = (await remoteAsset(t)).embed_code
  })
  after(async () => { await t.close() })
  const generate = (): string => `/v2/assets/${remote}/captions/generate`
  const reason = `The service cannot generate captions: generated captions are off: CAPTIONS_WHISPER_BIN and CAPTIONS_WHISPER_MODEL are not set, and pocketsphinx's English model is not in ${join(import.meta.dirname, 'no-model-here')} (Debian's pocketsphinx-en-us package installs it).`
  const rows: BadInputRow[] = [
    { name: 'a request while generated captions are off', method: 'POST', path: generate, body: { language: 'en' }, status: 409, message: reason },
    { name: 'a body without a language', method: 'POST', path: generate, body: {}, status: 400, message: 'Field language is required.' },
    { name: 'a body with another field', method: 'POST', path: generate, body: { language: 'en', engine: 'whisper' }, status: 400, message: 'Unknown fields: engine.' },
    { name: 'an upload asking for captions while they are off', method: 'POST', path: () => '/v2/assets', body: { asset_type: 'video', name: 'v', file_name: 'v.mp4', file_size: 10, generate_captions: ['en'] }, status: 409, message: reason }
  ]
  itAnswersEachRow(() => off, rows, ['media_jobs', 'asset_captions', 'assets'])
})

describe('POST /v2/assets/:id/captions/generate with pocketsphinx, bad requests', { skip: pocketsphinx.name === 'off' ? pocketsphinx.reason : false }, () => {
  let t: TestApp
  let remote: string
  before(async () => {
    t = await buildTestApp('sqlite', { CAPTIONS_POCKETSPHINX_MODEL: POCKETSPHINX_MODEL })
    remote = (await remoteAsset(t)).embed_code
  })
  after(async () => { await t.close() })
  const generate = (): string => `/v2/assets/${remote}/captions/generate`
  const rows: BadInputRow[] = [
    { name: 'an unknown language tag', method: 'POST', path: generate, body: { language: 'xx' }, status: 400, message: 'Field language: "xx" is not a known BCP 47 language tag (e.g. en, pt-BR).' },
    { name: 'a language pocketsphinx does not speak', method: 'POST', path: generate, body: { language: 'fr' }, status: 400, message: 'Field language: pocketsphinx transcribes English only (en); this service has no whisper model for fr.' },
    { name: 'an asset without uploaded media', method: 'POST', path: generate, body: { language: 'en' }, status: 409, message: () => `Asset ${remote} has no uploaded media to transcribe.` },
    { name: 'an asset that does not exist', method: 'POST', path: () => `/v2/assets/${'M'.repeat(32)}/captions/generate`, body: { language: 'en' }, status: 404, message: `Asset ${'M'.repeat(32)} does not exist.` },
    { name: 'generate_captions on a remote asset', method: 'POST', path: () => '/v2/assets', body: { asset_type: 'remote_asset', name: 'r', stream_urls: { flash: 'https://cdn.example.com/a.m3u8' }, generate_captions: ['en'] }, status: 400, message: 'Field generate_captions: remote_asset assets have no uploaded media to transcribe.' },
    { name: 'generate_captions with an unknown tag', method: 'POST', path: () => '/v2/assets', body: { asset_type: 'video', name: 'v', file_name: 'v.mp4', file_size: 10, generate_captions: ['en', 'xx'] }, status: 400, message: 'Field generate_captions: "xx" is not a known BCP 47 language tag (e.g. en, pt-BR).' },
    { name: 'generate_captions in a language pocketsphinx does not speak', method: 'POST', path: () => '/v2/assets', body: { asset_type: 'video', name: 'v', file_name: 'v.mp4', file_size: 10, generate_captions: ['en', 'de'] }, status: 400, message: 'Field generate_captions: pocketsphinx transcribes English only (en); this service has no whisper model for de.' },
    { name: 'generate_captions that is not an array', method: 'POST', path: () => '/v2/assets', body: { asset_type: 'video', name: 'v', file_name: 'v.mp4', file_size: 10, generate_captions: 'en' }, status: 400, message: 'Field generate_captions must be an array.' }
  ]
  itAnswersEachRow(() => t, rows, ['media_jobs', 'asset_captions', 'assets'])
})
