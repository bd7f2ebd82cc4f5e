import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { CLI, cliEnv, ROOT, type CliResult } from './cli.ts'
import { shellQuote } from '../../src/cli/credentials.ts'

/**
 * Runs `reelhouse …args` on a pseudo-terminal (util-linux `script`), as a person at a terminal would:
 * standard input, output and error are a TTY. `input` is typed in. Output lines end in `\r\n` there;
 * they come back with `\n`. stderr is merged into stdout, as on a terminal.
 */
export async function runInTerminal (args: string[], env: Record<string, string | undefined>, input = ''): Promise<CliResult> {
  const command = [process.execPath, CLI, ...args].map(shellQuote).join(' ')
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { ...cliEnv(env), COLUMNS: '200', TERM: 'dumb' } })
  let stdout = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString() })
  child.stdin.end(input)
  const [status] = await once(child, 'close') as [number | null]
  return { status, stdout: stdout.replace(/\r\n/g, '\n'), stderr: '' }
}

/** Whether `script` is there to make a terminal (util-linux; in every Debian). */
export async function terminalAvailable (): Promise<boolean> {
  const child = spawn('script', ['--version'])
  child.on('error', () => {})
  const [code] = await once(child, 'close').catch(() => [1]) as [number | null]
  return code === 0
}
