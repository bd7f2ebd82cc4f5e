import { spawn } from 'node:child_process'
import { setPriority } from 'node:os'
import { MediaAbortedError, MediaTimeoutError, MediaToolError } from './media-errors.ts'

export interface SuperviseOptions {
  command: string
  args: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  niceness: number
  timeoutMs: number
  signal: AbortSignal | undefined
  /** Names the run in error messages: "Making the 720p rendition took longer than…". */
  what: string
  onStdoutLine: ((line: string) => void) | undefined
  /** Keep stdout (ffprobe's JSON) up to this many bytes; past it the run is killed. 0 keeps none. */
  maxStdoutBytes: number
}

export interface ChildResult {
  exitCode: number | null
  /** The signal that ended the process (SIGSEGV of a crash, SIGKILL or SIGXCPU of a limit). */
  exitSignal: NodeJS.Signals | null
  stdout: string
  /** The last few KB of stderr, for classifying a failure and for the operator's log. */
  stderrTail: string
  /** Set when stdout passed `maxStdoutBytes` and the run was killed for it. */
  stdoutOverflow: boolean
}

const STDERR_TAIL_BYTES = 16 * 1024
const usesProcessGroups = process.platform !== 'win32'

/**
 * Runs one process without a shell, stdin closed, in its own process group, at lowered priority. On its
 * time limit or the caller's abort the whole group gets SIGKILL and the promise settles only once the
 * process is gone, so nothing outlives a failed run.
 */
export async function superviseChild (options: SuperviseOptions): Promise<ChildResult> {
  if (options.signal?.aborted === true) throw new MediaAbortedError(options.what)
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: false,
    // A new process group (setsid), so one kill reaches anything the tool starts.
    detached: usesProcessGroups,
    windowsHide: true
  })
  if (child.pid !== undefined && options.niceness > 0) {
    // Set at once after exec, before ffmpeg has started its worker threads, which inherit it.
    try { setPriority(child.pid, options.niceness) } catch { /* the process may already have ended */ }
  }

  let stopped: 'timeout' | 'aborted' | 'overflow' | null = null
  const kill = (): void => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
    try {
      if (usesProcessGroups) process.kill(-child.pid, 'SIGKILL')
      else child.kill('SIGKILL')
    } catch { /* already gone */ }
  }
  const stop = (why: 'timeout' | 'aborted' | 'overflow'): void => { stopped ??= why; kill() }
  const timer = setTimeout(() => { stop('timeout') }, options.timeoutMs)
  const onAbort = (): void => { stop('aborted') }
  options.signal?.addEventListener('abort', onAbort, { once: true })

  const stdoutChunks: Buffer[] = []
  let stdoutBytes = 0
  let pendingLine = ''
  child.stdout.on('data', (chunk: Buffer) => {
    if (options.maxStdoutBytes > 0) {
      stdoutBytes += chunk.length
      if (stdoutBytes > options.maxStdoutBytes) stop('overflow')
      else stdoutChunks.push(chunk)
    }
    if (options.onStdoutLine !== undefined) {
      const lines = (pendingLine + chunk.toString('utf8')).split('\n')
      pendingLine = lines.pop() ?? ''
      for (const line of lines) options.onStdoutLine(line.trimEnd())
    }
  })
  let stderrTail = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES)
  })

  try {
    const [exitCode, exitSignal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once('error', (error) => { reject(new MediaToolError(`${options.what} could not start: ${error.message}`)) })
      child.once('close', (code, signal) => { resolve([code, signal]) })
    })
    if (pendingLine !== '' && options.onStdoutLine !== undefined) options.onStdoutLine(pendingLine.trimEnd())
    if (stopped === 'timeout') throw new MediaTimeoutError(options.what, options.timeoutMs)
    if (stopped === 'aborted') throw new MediaAbortedError(options.what)
    return {
      exitCode,
      exitSignal,
      stdout: Buffer.concat(stdoutChunks).toString('utf8'),
      stderrTail,
      stdoutOverflow: stopped === 'overflow'
    }
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
  }
}
