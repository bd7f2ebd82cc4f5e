import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'

export interface IndexerProcess {
  pid: number
  /** http://127.0.0.1:<port> of its indexing service. */
  url: string
  /** SIGKILL: no shutdown of any kind (no flush, no ack, leases left behind). */
  kill9: () => Promise<void>
  /** SIGTERM: graceful shutdown. */
  stop: () => Promise<void>
}

/** Starts test/indexer/support/indexer-process.ts with `env` and waits for its ready line. */
export async function startIndexerProcess (env: Record<string, string>): Promise<IndexerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'test/indexer/support/indexer-process.ts'], {
    env: { ...process.env, LOG_LEVEL: 'silent', HOST: '127.0.0.1', INDEXER_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const lines = createInterface({ input: child.stdout! })
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => { reject(new Error(`the indexer process exited with ${String(code)} before it was ready`)) })
    lines.on('line', (line) => { if (line.startsWith('{"ready":true')) resolve((JSON.parse(line) as { port: number }).port) })
  })
  const signal = async (name: NodeJS.Signals): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    child.kill(name)
    await exited
  }
  return { pid: child.pid as number, url: `http://127.0.0.1:${port}`, kill9: async () => { await signal('SIGKILL') }, stop: async () => { await signal('SIGTERM') } }
}
