import { existsSync, openAsBlob, statSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import type { Command } from 'commander'
import { loadCliEnv } from '../config/index.ts'
import { NotFoundError, type UploadProgress } from 'reelhouse/client'
import { CliError } from './cli-error.ts'
import { confirm } from './confirm.ts'
import { connect, withServerOptions, type ServerFlags } from './connection.ts'
import { mediaKindOf, type UploadType } from './media-kind.ts'
import { CHECKSUM_METADATA, liveCopiesOf, sha256Of } from './upload-duplicates.ts'
import { uploadOverTus } from './tus-upload.ts'
import { readUpload, uploadKey, uploadStateFile, writeUpload } from './upload-state.ts'

interface UploadFlags extends ServerFlags {
  name?: string
  label?: string
  type?: UploadType
  force?: boolean
  chunkSize?: string
  concurrency: string
  /** true (`--wait`, the default): until playable; `ready`: until the whole ladder is made; false: `--no-wait`. */
  wait?: boolean | string
  pollInterval: string
  tus?: boolean
}

const MiB = 1024 * 1024

/**
 * `reelhouse upload FILE`: creates the asset, uploads the chunks in parallel with a progress bar on
 * stderr, completes the upload and follows processing until the asset is live (or paused, or error).
 * Run again after an interruption, it continues the same asset (docs/uploads.md, "The CLI").
 */
export function registerUploadCommand (program: Command): void {
  withServerOptions(program.command('upload')
    .description('upload a media file as a new asset, resumably, and follow its processing; prints the asset')
    .argument('<file>', 'the media file')
    .option('--name <name>', 'the asset\'s name (default: the file name)')
    .option('--label <path>', 'put the asset under this label, created if missing, e.g. /Films/Shorts')
    .option('--type <type>', 'video, audio or ad (default: audio for an audio file — MP3, M4A, WAV, … —, else video)')
    .option('--force', 'upload even when a live asset has the same file (same size and SHA-256)')
    .option('--chunk-size <bytes>', 'bytes per chunk (default 8 MiB; with --tus, 64 MiB: a PATCH is one request at a time)')
    .option('--concurrency <n>', 'chunks in flight at once', '4')
    .option('--tus', 'upload over tus (a direct upload) instead of Backlot chunks; --chunk-size is the PATCH size')
    .option('--wait [until]', 'follow processing until the asset is playable (default), or with `ready` until every rendition is made')
    .option('--no-wait', 'stop once uploaded, without following processing')
    .option('--poll-interval <ms>', 'between two reads of the asset while it processes', '2000'))
    .addHelpText('after', '\nExamples:\n  reelhouse upload trailer.mp4 --label /Films/Trailers\n  reelhouse upload theme.mp3              # an audio asset, decided from the file\n  reelhouse upload again.mp4 --force      # even if the same file is live already')
    .action(async (file: string, flags: UploadFlags) => { await upload(file, flags) })
}

async function upload (file: string, flags: UploadFlags): Promise<void> {
  const path = resolve(file)
  if (!existsSync(path) || !statSync(path).isFile()) throw new CliError(`${file} is not a file.`)
  if (flags.type !== undefined && !['video', 'audio', 'ad'].includes(flags.type)) throw new CliError(`--type must be video, audio or ad, not ${flags.type}.`)
  // tus sends one PATCH at a time (each continues from the last one's offset), so its PATCHes are larger
  // than the chunks, four of which are in flight at once (docs/uploads.md).
  const chunkSize = positive('--chunk-size', flags.chunkSize ?? String((flags.tus === true ? 64 : 8) * MiB))
  const concurrency = positive('--concurrency', flags.concurrency)
  const connection = connect(flags)
  const { client, credentials, address } = connection
  const stat = statSync(path)
  const stateFile = uploadStateFile(loadCliEnv())
  const key = uploadKey({ baseUrl: address.url, apiKey: credentials.apiKey, path, size: stat.size, mtimeMs: stat.mtimeMs })
  const earlier = flags.tus === true ? undefined : readUpload(stateFile, key)
  const sha256 = await sha256Of(path)
  let type = flags.type
  if (earlier === undefined) {
    if (type === undefined) {
      const kind = mediaKindOf(path)
      type = kind.type
      process.stderr.write(`${basename(path)} is ${kind.reason}: uploading it as ${type === 'audio' ? 'an audio' : 'a video'} asset (--type sets another)\n`)
    }
    if (flags.force !== true) {
      const [copy] = await liveCopiesOf(client, stat.size, sha256)
      if (copy !== undefined && !await confirm(`${basename(path)} (${stat.size} bytes, SHA-256 ${sha256.slice(0, 12)}…) is already asset ${copy.embed_code} "${copy.name}" (live). Upload it again?`, false, '--force')) {
        process.stderr.write('Not uploaded.\n')
        return
      }
    }
  }
  const bar = progressBar(stat.size)
  const options = {
    chunkSize: earlier?.chunk_size ?? chunkSize,
    concurrency,
    onProgress: bar,
    onAsset: (asset: { embed_code: string }) => { writeUpload(stateFile, key, { asset_id: asset.embed_code, chunk_size: earlier?.chunk_size ?? chunkSize }) }
  }
  let asset
  if (flags.tus === true) {
    const assetId = await uploadOverTus(connection, path, {
      name: flags.name ?? basename(path), assetType: type ?? 'video', chunkSize, size: stat.size, stateFile, key, onProgress: bar
    })
    asset = await client.assets.get(assetId)
  }
  if (asset === undefined && earlier !== undefined) {
    process.stderr.write(`Continuing the upload of asset ${earlier.asset_id}\n`)
    try {
      asset = await client.assets.upload(await openAsBlob(path), { ...options, assetId: earlier.asset_id })
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error
      process.stderr.write(`Asset ${earlier.asset_id} no longer exists; starting a new upload\n`)
      writeUpload(stateFile, key, undefined)
    }
  }
  asset ??= await client.assets.upload(await openAsBlob(path), {
    ...options, name: flags.name ?? basename(path), fileName: basename(path), assetType: type ?? 'video'
  })
  writeUpload(stateFile, key, undefined)
  // What the next upload of the same file compares with (docs/cli.md, "Uploads").
  await client.assets.metadata.update(asset.embed_code, { [CHECKSUM_METADATA]: sha256 })
  process.stderr.write(`Uploaded ${basename(path)} as asset ${asset.embed_code}\n`)
  if (flags.label !== undefined) {
    const [label] = await client.labels.createByFullPath(flags.label)
    if (label !== undefined) await client.assets.labels.addOne(asset.embed_code, label.id)
  }
  if (flags.wait !== false) {
    if (flags.wait !== undefined && flags.wait !== true && flags.wait !== 'ready' && flags.wait !== 'playable') throw new CliError(`--wait takes playable or ready, not ${flags.wait}.`)
    let last = ''
    asset = await client.assets.waitUntilProcessed(asset.embed_code, {
      until: flags.wait === 'ready' ? 'ready' : 'playable',
      interval: positive('--poll-interval', flags.pollInterval),
      onPoll: (polled) => {
        const line = processingLine(polled as PolledAsset)
        if (line !== last) process.stderr.write(`Processing: ${line}\n`)
        last = line
      }
    })
  }
  console.log(JSON.stringify(asset, null, 2))
}

interface PolledAsset {
  status: string
  processing_progress?: number
  processing?: {
    state: string
    queue_position: number | null
    estimated_seconds_left: number | null
    renditions: Array<{ name: string, state: string, playable: boolean }>
  } | null
}

/**
 * Where processing stands, in words: "queued, position 2", "playable now (360p); 720p, 1080p processing,
 * about 3 min", or the status and percentage when the server says no more.
 */
export function processingLine (asset: PolledAsset): string {
  const job = asset.processing
  const percent = typeof asset.processing_progress === 'number' ? ` ${asset.processing_progress}%` : ''
  if (job === undefined || job === null) return `${asset.status}${percent}`
  if (job.state === 'queued') return `queued, position ${job.queue_position ?? '?'}`
  const playable = job.renditions.filter((r) => r.playable).map((r) => r.name)
  const coming = job.renditions.filter((r) => !r.playable && r.state !== 'failed').map((r) => r.name)
  const left = job.estimated_seconds_left === null ? '' : `, about ${job.estimated_seconds_left < 90 ? `${job.estimated_seconds_left} s` : `${Math.round(job.estimated_seconds_left / 60)} min`}`
  if (playable.length === 0) return `processing${percent}${left}`
  return `playable now (${playable.join(', ')})${coming.length === 0 ? '' : `; ${coming.join(', ')} processing`}${left}`
}

function positive (flag: string, value: string): number {
  const number = Number(value)
  if (!Number.isSafeInteger(number) || number < 1) throw new CliError(`${flag} must be a positive integer, not ${value}.`)
  return number
}

/**
 * Progress on stderr: a bar redrawn in place on a terminal; elsewhere (a log, a pipe) one line per
 * tenth of the file, so a log is not flooded.
 */
function progressBar (total: number): (progress: UploadProgress) => void {
  const started = Date.now()
  const tty = process.stderr.isTTY
  let lastTenth = -1
  // The first report counts what the server held before this run (a resumed upload): the speed leaves it out.
  let before: number | undefined
  return (progress) => {
    before ??= progress.sentBytes
    const now = progress.sentBytes - before
    const fraction = total === 0 ? 1 : progress.sentBytes / total
    const seconds = Math.max(0.001, (Date.now() - started) / 1000)
    const text = `${(progress.sentBytes / MiB).toFixed(1)}/${(total / MiB).toFixed(1)} MiB, chunk ${progress.chunksDone}/${progress.chunkCount}, ${bytes(now)} sent now at ${bytes(now / seconds)}/s`
    if (tty) {
      const width = 30
      const filled = Math.round(fraction * width)
      process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${text}${fraction >= 1 ? '\n' : ''}`)
      return
    }
    const tenth = Math.floor(fraction * 10)
    if (tenth === lastTenth) return
    lastTenth = tenth
    process.stderr.write(`Uploaded ${tenth * 10}% (${text})\n`)
  }
}

/** A byte count for a person: KiB below a MiB, else MiB. */
function bytes (count: number): string {
  return count < MiB ? `${(count / 1024).toFixed(1)} KiB` : `${(count / MiB).toFixed(1)} MiB`
}
