import { access, constants, readFile, stat } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { dirname, delimiter, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { toolProcessEnv, type MediaToolsEnv } from '../../config/index.ts'
import { superviseChild } from './child-supervisor.ts'
import { ENCODERS_ARGS, VERSION_ARGS } from './ffmpeg-arguments.ts'
import { MediaToolsUnavailableError } from './media-errors.ts'
import { wasmWorkerCommand } from './media-runner.ts'
import type { MediaLimits, MediaLogger, MediaTools, NativeMediaTools, WasmMediaTools } from './processing-types.ts'

export interface LocateMediaToolsOptions {
  /** FFMPEG_PATH, FFPROBE_PATH, PATH and what runs inherit (config.mediaTools); a test passes a PATH without ffmpeg. */
  env: MediaToolsEnv
  /** Receives one line at start: which ffmpeg, its version, and (for wasm) why a system one is better. */
  logger?: MediaLogger
  /** Threads of each native run (default: the number of cores, at most 16). */
  threads?: number
  /**
   * RLIMIT_DATA of each run (default 1 GiB + 128 MiB per thread; 0 turns it off). Measured at 1080p:
   * 384 MiB with 1 thread, 512 MiB with 2, 1 GiB with 8, 1.5 GiB with 16 (thread stacks count).
   */
  memoryLimitBytes?: number
  /** Niceness added to each run (default 10), so the API stays responsive while a worker transcodes. */
  niceness?: number
  /** Largest input the wasm build accepts (default 1 GiB; wasm memory is 32-bit). */
  wasmMaxInputBytes?: number
}

const MIB = 1024 ** 2

/** The limits used when an option is not given. */
export function defaultLimits (cores = availableParallelism()): MediaLimits {
  const threads = Math.max(1, Math.min(cores, 16))
  return {
    threads,
    memoryLimitBytes: 1024 * MIB + 128 * MIB * threads,
    niceness: 10,
    wasmMaxInputBytes: 1024 * MIB
  }
}

const CHECK_TIMEOUT_MS = 15_000
const WASM_CHECK_TIMEOUT_MS = 60_000
const isWindows = process.platform === 'win32'

/**
 * Picks the ffmpeg/ffprobe to use, once at start: FFMPEG_PATH/FFPROBE_PATH when set (and they must
 * work), else the ones on PATH, else the bundled wasm build. Each candidate is run (`-version`, and
 * ffmpeg's encoder list must hold libx264 and aac) before it is chosen. Nothing is downloaded.
 */
export async function locateMediaTools (options: LocateMediaToolsOptions): Promise<MediaTools> {
  const env = options.env
  const defaults = defaultLimits()
  const threads = options.threads ?? defaults.threads
  const limits: MediaLimits = {
    threads,
    memoryLimitBytes: options.memoryLimitBytes ?? (options.threads === undefined ? defaults.memoryLimitBytes : defaultLimits(threads).memoryLimitBytes),
    niceness: options.niceness ?? defaults.niceness,
    wasmMaxInputBytes: options.wasmMaxInputBytes ?? defaults.wasmMaxInputBytes
  }
  const childEnv = toolProcessEnv(env)
  const prlimitPath = process.platform === 'linux' ? await findWorking('prlimit', childEnv, ['--version']) : null
  const setprivPath = process.platform === 'linux' ? await findWorking('setpriv', childEnv, ['--version']) : null
  const tools = await chooseTools(env, limits, { prlimitPath, setprivPath, childEnv })
  // One line at start: which ffmpeg, its version, and what it lacks.
  const noCap = prlimitPath === null && process.platform === 'linux'
  const message = tools.summary + (noCap ? ' util-linux prlimit was not found, so runs have no memory cap.' : '')
  const fields = { mediaTools: tools.kind, version: tools.version, memoryCap: prlimitPath === null ? 'none' : `prlimit --data=${limits.memoryLimitBytes}` }
  if (tools.kind === 'wasm') options.logger?.warn({ ...fields, recommendation: tools.recommendation }, message)
  else if (noCap) options.logger?.warn({ ...fields, ffmpeg: tools.ffmpegPath, ffprobe: tools.ffprobePath }, message)
  else options.logger?.info({ ...fields, ffmpeg: tools.ffmpegPath, ffprobe: tools.ffprobePath }, message)
  return tools
}

/** The util-linux programs a run is wrapped in where they exist. */
type Wrappers = Pick<MediaTools, 'prlimitPath' | 'setprivPath' | 'childEnv'>

async function chooseTools (env: MediaToolsEnv, limits: MediaLimits, wrappers: Wrappers): Promise<MediaTools> {
  const configuredFfmpeg = nonEmpty(env.FFMPEG_PATH)
  const configuredFfprobe = nonEmpty(env.FFPROBE_PATH)
  if (configuredFfmpeg !== undefined || configuredFfprobe !== undefined) {
    // A setting that is wrong is an error at start, not a silent fallback.
    const ffmpegPath = configuredFfmpeg !== undefined ? resolve(configuredFfmpeg) : await findOnPath('ffmpeg', env.PATH)
    // With FFMPEG_PATH alone, the ffprobe beside it is the natural partner.
    const sibling = ffmpegPath === null ? null : await firstExecutable([join(dirname(ffmpegPath), executableName('ffprobe'))])
    const ffprobePath = configuredFfprobe !== undefined ? resolve(configuredFfprobe) : sibling ?? await findOnPath('ffprobe', env.PATH)
    const ffmpegVersion = await checkNative('ffmpeg', ffmpegPath, configuredFfmpeg !== undefined ? 'FFMPEG_PATH' : 'PATH', wrappers.childEnv)
    await checkNative('ffprobe', ffprobePath, configuredFfprobe !== undefined ? 'FFPROBE_PATH' : 'PATH', wrappers.childEnv)
    return native(ffmpegPath as string, ffprobePath as string, ffmpegVersion, 'FFMPEG_PATH', limits, wrappers)
  }

  const ffmpegPath = await findOnPath('ffmpeg', env.PATH)
  const ffprobePath = await findOnPath('ffprobe', env.PATH)
  let whyNotPath = 'no ffmpeg and ffprobe on PATH'
  if (ffmpegPath !== null && ffprobePath !== null) {
    try {
      const version = await checkNative('ffmpeg', ffmpegPath, 'PATH', wrappers.childEnv)
      await checkNative('ffprobe', ffprobePath, 'PATH', wrappers.childEnv)
      return native(ffmpegPath, ffprobePath, version, 'PATH', limits, wrappers)
    } catch (error) {
      whyNotPath = (error as Error).message
    }
  }
  return await wasm(limits, wrappers, whyNotPath)
}

function native (ffmpegPath: string, ffprobePath: string, version: string, source: 'FFMPEG_PATH' | 'PATH', limits: MediaLimits, wrappers: Wrappers): NativeMediaTools {
  return {
    kind: 'native',
    ffmpegPath,
    ffprobePath,
    source,
    version,
    limits,
    ...wrappers,
    summary: `media tools: system ffmpeg ${version} (${ffmpegPath}, from ${source})`
  }
}

async function wasm (limits: MediaLimits, wrappers: Wrappers, whyNotNative: string): Promise<WasmMediaTools> {
  let coreDir: string
  let corePackageVersion: string
  try {
    coreDir = dirname(fileURLToPath(import.meta.resolve('@ffmpeg/core')))
    const manifest = JSON.parse(await readFile(join(coreDir, '..', '..', 'package.json'), 'utf8')) as { version: string }
    corePackageVersion = manifest.version
  } catch (error) {
    throw unavailable(whyNotNative, `the bundled @ffmpeg/core is not installed (${(error as Error).message})`)
  }
  const worker = wasmWorkerCommand({ coreDir, program: 'ffmpeg', inputFile: '', outDir: null, args: VERSION_ARGS })
  const result = await superviseChild({
    ...worker,
    cwd: coreDir,
    env: wrappers.childEnv,
    niceness: 0,
    timeoutMs: WASM_CHECK_TIMEOUT_MS,
    signal: undefined,
    what: 'Starting the WebAssembly ffmpeg',
    onStdoutLine: undefined,
    maxStdoutBytes: 1024 * 1024
  })
  const version = /^ffmpeg version (\S+)/m.exec(result.stdout)?.[1]
  if (version === undefined) throw unavailable(whyNotNative, `the bundled WebAssembly ffmpeg does not run: ${result.stderrTail.trim().slice(-500)}`)
  const recommendation = 'Install ffmpeg on this server (Debian/Ubuntu: apt install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH: ' +
    'a system ffmpeg processes media about 3.3× faster, uses all cores, and has no input size cap ' +
    `(the WebAssembly build holds the whole file in memory, so it refuses files over ${Math.round(limits.wasmMaxInputBytes / 1024 ** 2)} MB).`
  return {
    kind: 'wasm',
    coreDir,
    corePackageVersion,
    version,
    limits,
    ...wrappers,
    recommendation,
    summary: `media tools: WebAssembly ffmpeg ${version} (@ffmpeg/core ${corePackageVersion}), because ${whyNotNative}. ${recommendation}`
  }
}

function unavailable (whyNotNative: string, whyNotWasm: string): MediaToolsUnavailableError {
  return new MediaToolsUnavailableError(`No usable ffmpeg: ${whyNotNative}, and ${whyNotWasm}. Install ffmpeg or set FFMPEG_PATH and FFPROBE_PATH.`)
}

/** Runs the program; answers its version, or throws naming the setting it came from and what is wrong. */
async function checkNative (name: 'ffmpeg' | 'ffprobe', path: string | null, setting: string, childEnv: Record<string, string>): Promise<string> {
  if (path === null) throw new MediaToolsUnavailableError(`${name} was not found on PATH`)
  const where = setting === 'PATH' ? `${name} on PATH (${path})` : `${setting} (${path})`
  if (await firstExecutable([path]) === null) throw new MediaToolsUnavailableError(`${where} is not an executable file`)
  const run = async (args: string[]): Promise<string> => {
    const result = await superviseChild({
      command: path, args, cwd: process.cwd(), env: childEnv, niceness: 0, timeoutMs: CHECK_TIMEOUT_MS,
      signal: undefined, what: `Checking ${where}`, onStdoutLine: undefined, maxStdoutBytes: 1024 * 1024
    }).catch((error: Error) => { throw new MediaToolsUnavailableError(`${where} does not run: ${error.message}`) })
    if (result.exitCode !== 0) throw new MediaToolsUnavailableError(`${where} does not run (exit code ${result.exitCode ?? result.exitSignal})`, result.stderrTail)
    return result.stdout
  }
  const banner = await run(VERSION_ARGS)
  const version = new RegExp(`^${name} version (\\S+)`, 'm').exec(banner)?.[1]
  if (version === undefined) throw new MediaToolsUnavailableError(`${where} is not ${name}: its -version output does not name it`)
  if (name === 'ffmpeg') {
    const encoders = await run(ENCODERS_ARGS)
    for (const encoder of ['libx264', 'aac', 'mjpeg']) {
      if (!new RegExp(`^\\s*\\S+\\s+${encoder}\\s`, 'm').test(encoders)) throw new MediaToolsUnavailableError(`${where} has no ${encoder} encoder`)
    }
  }
  return version
}

async function findWorking (name: string, childEnv: Record<string, string>, args: string[]): Promise<string | null> {
  const path = await findOnPath(name, childEnv.PATH)
  if (path === null) return null
  const result = await superviseChild({
    command: path, args, cwd: process.cwd(), env: childEnv, niceness: 0, timeoutMs: CHECK_TIMEOUT_MS,
    signal: undefined, what: `Checking ${path}`, onStdoutLine: undefined, maxStdoutBytes: 64 * 1024
  }).catch(() => null)
  return result?.exitCode === 0 ? path : null
}

async function findOnPath (name: string, pathList: string | undefined): Promise<string | null> {
  const dirs = (pathList ?? '').split(delimiter).filter((dir) => dir !== '')
  return await firstExecutable(dirs.map((dir) => join(dir, executableName(name))))
}

async function firstExecutable (paths: string[]): Promise<string | null> {
  for (const path of paths) {
    try {
      if (!(await stat(path)).isFile()) continue
      await access(path, isWindows ? constants.F_OK : constants.X_OK)
      return path
    } catch { /* not here */ }
  }
  return null
}

function executableName (name: string): string {
  return isWindows ? `${name}.exe` : name
}

function nonEmpty (value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value
}
