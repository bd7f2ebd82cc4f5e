import { readdir, stat } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { WASM_INPUT_DIR, WASM_OUT_DIR, type RunContext } from './ffmpeg-arguments.ts'
import { superviseChild, type ChildResult } from './child-supervisor.ts'
import { MediaRejectedError } from './media-errors.ts'
import type { MediaTools, NativeMediaTools, WasmMediaTools } from './processing-types.ts'

export interface RunSpec {
  program: 'ffmpeg' | 'ffprobe'
  /** Builds the argument list from the paths the running ffmpeg sees (see ffmpeg-arguments.ts). */
  args: (run: RunContext) => string[]
  /** Absolute path of the upload; its folder must hold nothing else. */
  inputFile: string
  /** Absolute folder for outputs, outside the input's folder; null when the run writes nothing. */
  outDir: string | null
  /** Folders inside `outDir` the run writes into (the wasm build's virtual file system needs them made). */
  outSubdirs?: string[]
  what: string
  timeoutMs: number
  signal?: AbortSignal | undefined
  onStdoutLine?: ((line: string) => void) | undefined
  maxStdoutBytes?: number
}

const WORKER_FILE = fileURLToPath(new URL('./wasm-worker.ts', import.meta.url))
const TSX_LOADER = import.meta.resolve('tsx')

/** Runs ffmpeg or ffprobe on one upload, natively or in the wasm child, under the same limits. */
export async function runMediaTool (tools: MediaTools, spec: RunSpec): Promise<ChildResult> {
  await checkJobLayout(spec.inputFile, spec.outDir)
  return tools.kind === 'native' ? await runNative(tools, spec) : await runWasm(tools, spec)
}

/**
 * The job folder holds only the upload, so even a relative reference that slipped past the demuxer
 * whitelist would find nothing to read; outputs go elsewhere so they never join it.
 */
export async function checkJobLayout (inputFile: string, outDir: string | null): Promise<void> {
  if (!isAbsolute(inputFile)) throw new Error(`the input path must be absolute: ${inputFile}`)
  const entries = await readdir(dirname(inputFile))
  if (entries.length !== 1 || entries[0] !== basename(inputFile)) {
    throw new Error(`the input's folder must hold only the input file; ${dirname(inputFile)} holds ${entries.length} entries`)
  }
  if (outDir !== null) {
    if (!isAbsolute(outDir)) throw new Error(`the output folder must be absolute: ${outDir}`)
    const fromInput = relative(dirname(inputFile), resolve(outDir))
    const outside = fromInput === '..' || fromInput.startsWith(`..${sep}`) || isAbsolute(fromInput)
    if (!outside) throw new Error('the output folder must be outside the input\'s folder')
  }
}

async function runNative (tools: NativeMediaTools, spec: RunSpec): Promise<ChildResult> {
  const program = spec.program === 'ffmpeg' ? tools.ffmpegPath : tools.ffprobePath
  const args = spec.args({ input: spec.inputFile, outDir: spec.outDir ?? '', threads: tools.limits.threads })
  return await supervise(tools, spec, withLimits(tools, tools.limits.memoryLimitBytes, spec.timeoutMs, availableParallelism(), program, args))
}

async function runWasm (tools: WasmMediaTools, spec: RunSpec): Promise<ChildResult> {
  const { size } = await stat(spec.inputFile)
  if (size > tools.limits.wasmMaxInputBytes) {
    throw new MediaRejectedError(
      `The file is ${megabytes(size)} MB; this server processes files up to ${megabytes(tools.limits.wasmMaxInputBytes)} MB ` +
      '(it has no system ffmpeg, and its built-in one holds the whole file in memory).'
    )
  }
  const worker = wasmWorkerCommand({
    coreDir: tools.coreDir,
    program: spec.program,
    inputFile: spec.inputFile,
    outDir: spec.outDir,
    outSubdirs: spec.outSubdirs ?? [],
    // The wasm build is single-threaded.
    args: spec.args({ input: `${WASM_INPUT_DIR}/${basename(spec.inputFile)}`, outDir: WASM_OUT_DIR, threads: 1 })
  })
  // The file is held twice (the read buffer and the virtual file system) beside the wasm heap.
  const memory = tools.limits.memoryLimitBytes === 0 ? 0 : tools.limits.memoryLimitBytes + 2 * size
  return await supervise(tools, spec, withLimits(tools, memory, spec.timeoutMs, 1, worker.command, worker.args))
}

/** Runs the limited command in the input's folder, with the tools' niceness and the run's time limit and output handling. */
async function supervise (tools: MediaTools, spec: RunSpec, limited: ReturnType<typeof withLimits>): Promise<ChildResult> {
  return await superviseChild({
    ...limited,
    cwd: dirname(spec.inputFile),
    env: tools.childEnv,
    niceness: tools.limits.niceness,
    timeoutMs: spec.timeoutMs,
    signal: spec.signal,
    what: spec.what,
    onStdoutLine: spec.onStdoutLine,
    maxStdoutBytes: spec.maxStdoutBytes ?? 0
  })
}

export interface WasmWorkerRequest {
  coreDir: string
  program: 'ffmpeg' | 'ffprobe'
  /** Real path of the input ('' for none), copied into the virtual file system. */
  inputFile: string
  /** Real folder the contents of the virtual output folder are copied to; null for none. */
  outDir: string | null
  /** Folders inside the output folder, made in the virtual file system and copied back like it. */
  outSubdirs?: string[]
  args: string[]
}

/** The wasm build runs in a separate Node process: its GPL code and its memory stay out of ours. */
export function wasmWorkerCommand (request: WasmWorkerRequest): { command: string, args: string[] } {
  return { command: process.execPath, args: ['--import', TSX_LOADER, WORKER_FILE, JSON.stringify(request)] }
}

/**
 * Wraps a command in util-linux `prlimit` and `setpriv` where they exist (each execs the next, so the
 * tool stays the worker's child): RLIMIT_DATA caps the memory the tool can allocate (unlike an
 * address-space cap it does not count reserved-but-unused thread stacks and malloc arenas, which grow
 * with the number of cores); RLIMIT_CORE 0 keeps crash dumps out of the job folder; `setpriv
 * --pdeathsig KILL` has the kernel kill the tool when the worker dies (kill -9 included), and
 * RLIMIT_CPU, set past what the time limit allows on all cores, ends it where setpriv is missing.
 */
export function withLimits (wrappers: Pick<MediaTools, 'prlimitPath' | 'setprivPath'>, memoryBytes: number, timeoutMs: number, cores: number, command: string, args: string[]): { command: string, args: string[] } {
  const orphanProof = wrappers.setprivPath === null ? { command, args } : { command: wrappers.setprivPath, args: ['--pdeathsig', 'KILL', '--', command, ...args] }
  if (wrappers.prlimitPath === null) return orphanProof
  const cpuSeconds = Math.ceil(timeoutMs / 1000) * cores + 60
  const limits = [`--cpu=${cpuSeconds}`, '--core=0', ...(memoryBytes > 0 ? [`--data=${memoryBytes}`] : [])]
  return { command: wrappers.prlimitPath, args: [...limits, '--', orphanProof.command, ...orphanProof.args] }
}

function megabytes (bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0)
}
