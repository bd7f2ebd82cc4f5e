import { spawn } from 'node:child_process'

export interface CliResult { code: number | null, stdout: string, stderr: string }

/** Runs `reelhouse <args>` (bin/reelhouse.mjs) with `env` and collects its output. */
export async function runCli (args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(process.execPath, ['bin/reelhouse.mjs', ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString() })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  return { code, stdout, stderr }
}
