import { join } from 'node:path'
import type { AppContext } from '../app/context.ts'
import { createLogger } from '../http/logging.ts'
import { locateMediaTools } from '../media/processing/index.ts'
import type { CaptionEngineChoice } from '../media/captions/index.ts'
import { startMediaWorker, type MediaWorker, type MediaWorkerOptions } from '../media/worker/index.ts'

/**
 * The media half of the worker role (docs/media.md): finds ffmpeg once (a wrong FFMPEG_PATH stops the
 * start with a clear error; no system ffmpeg means the bundled wasm build, said in the log), then takes
 * media jobs from the queue. Its figures join the process's /metrics.
 */
export async function startMediaRole (ctx: AppContext, options: MediaWorkerOptions = {}): Promise<MediaWorker> {
  const { config } = ctx
  const logger = createLogger(config, { name: 'media' })
  const tools = await locateMediaTools({ env: config.mediaTools, logger })
  const engine = captionEngineHere(ctx.services.captionEngine, tools.kind)
  if (engine.name === 'off') logger.warn({ reason: engine.reason }, engine.reason)
  else logger.info({ engine: engine.name }, `generated captions: ${engine.name}`)
  const worker = await startMediaWorker({
    database: ctx.database,
    store: ctx.services.mediaStore,
    tools,
    assets: ctx.services.assetMedia,
    workDir: join(config.dataDir, 'media-work'),
    captions: { engine, sink: ctx.services.captions }
  }, { logger, leaseMs: config.mediaJobLeaseSeconds * 1000, maxAttempts: config.mediaJobAttempts, retireAfterMs: config.mediaRetireAfterSeconds * 1000, pacingPercent: config.mediaTestPacingPercent, concurrency: config.mediaWorkerConcurrency, ...options })
  ctx.metrics.register('media-worker', async () => await worker.metrics.families())
  return worker
}

/** pocketsphinx runs inside the system ffmpeg (its asr filter): with the built-in wasm ffmpeg it is off. */
function captionEngineHere (engine: CaptionEngineChoice, toolsKind: 'native' | 'wasm'): CaptionEngineChoice {
  if (engine.name !== 'pocketsphinx' || toolsKind === 'native') return engine
  return { name: 'off', reason: 'generated captions are off: pocketsphinx runs in the system ffmpeg\'s asr filter, and this worker has only the built-in ffmpeg (set FFMPEG_PATH, or CAPTIONS_WHISPER_BIN and CAPTIONS_WHISPER_MODEL)' }
}
