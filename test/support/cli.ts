import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

export const ROOT = join(import.meta.dirname, '..', '..')
/** The `reelhouse` command as installed (`bin` of package.json). */
export const CLI = join(ROOT, 'bin', 'reelhouse.mjs')

/**
 * The environment of a CLI run: this process's, minus anything that would choose credentials or a
 * data directory behind the test's back, plus `env`.
 */
export function cliEnv (env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base = { ...process.env }
  for (const name of ['REELHOUSE_API_KEY', 'REELHOUSE_SECRET', 'REELHOUSE_PROFILE', 'REELHOUSE_DATA_DIR', 'XDG_CONFIG_HOME', 'LOG_FORMAT', 'NODE_TEST_CONTEXT']) delete base[name]
  return { ...base, ...env }
}

export interface CliResult { status: number | null, stdout: string, stderr: string }

/** Runs `reelhouse …args` to completion. */
export async function runCli (args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: cliEnv(env) })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString() })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const [status] = await once(child, 'close') as [number | null]
  return { status, stdout, stderr }
}

/** A long-running `reelhouse serve …`: its output line by line, and ways to wait for a line and to stop it. */
export interface CliProcess {
  child: ChildProcessWithoutNullStreams
  readonly stdout: string[]
  readonly stderr: string[]
  /** The first stdout line (already printed or still to come) matching `pattern`; rejects if the process exits first. */
  waitFor: (pattern: RegExp) => Promise<string>
  /** The same for stderr (progress and status lines). */
  waitForStderr: (pattern: RegExp) => Promise<string>
  /** Resolves with the exit code once the process has exited by itself. */
  exited: () => Promise<number | null>
  /** Sends the signal and resolves with the exit code once the process has exited. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

export function startCli (args: string[], env: Record<string, string | undefined>): CliProcess {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: cliEnv(env) })
  const exited = once(child, 'close').then(([code]) => code as number | null)
  const follow = (input: NodeJS.ReadableStream) => {
    const lines: string[] = []
    const waiters: Array<{ pattern: RegExp, resolve: (line: string) => void }> = []
    createInterface({ input }).on('line', (line) => {
      lines.push(line)
      for (const waiter of waiters.filter((w) => w.pattern.test(line))) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(line)
      }
    })
    const waitFor = async (pattern: RegExp): Promise<string> => {
      const seen = lines.find((line) => pattern.test(line))
      if (seen !== undefined) return seen
      return await new Promise<string>((resolve, reject) => {
        waiters.push({ pattern, resolve })
        exited.then((code) => { reject(new Error(`reelhouse ${args.join(' ')} exited (${String(code)}) before printing ${String(pattern)}; stderr: ${stderr.lines.join('\n')}`)) }, reject)
      })
    }
    return { lines, waitFor }
  }
  const stdout = follow(child.stdout)
  const stderr = follow(child.stderr)
  return {
    child,
    stdout: stdout.lines,
    stderr: stderr.lines,
    waitFor: stdout.waitFor,
    waitForStderr: stderr.waitFor,
    exited: async () => await exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return await exited
    }
  }
}
