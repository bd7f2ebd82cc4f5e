import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startChild, type Child } from './process.ts'
import type { Target } from './client.ts'

export interface ReelhouseInfo { api?: number, cdn?: number, apiKey: string, secret: string, accountId: string }

export interface Reelhouse {
  child: Child<ReelhouseInfo>
  dataDir: string
  api: Target
  cdn: Target
  stop: () => Promise<void>
}

export const BENCH_MASTER_KEY = 'be'.repeat(32)

/** A Reelhouse server process on a fresh data directory (SQLite unless env says otherwise). */
export async function startReelhouse (env: Record<string, string> = {}, roles = 'api'): Promise<Reelhouse> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-bench-'))
  const child = await startChild<ReelhouseInfo>('bench/servers/reelhouse.ts', {
    REELHOUSE_DATA_DIR: dataDir,
    REELHOUSE_MASTER_KEY: BENCH_MASTER_KEY,
    HOST: '127.0.0.1',
    API_PORT: '0',
    CDN_PORT: '0',
    INDEXER_PORT: '0',
    BENCH_ROLES: roles,
    // Credits stay on (the real hot path) with an allowance no run can exhaust.
    CREDITS_PER_MINUTE: '1000000000',
    ...env
  })
  const { apiKey, secret } = child.info
  return {
    child,
    dataDir,
    api: { base: `https://127.0.0.1:${child.info.api ?? 0}`, apiKey, secret },
    cdn: { base: `http://127.0.0.1:${child.info.cdn ?? 0}`, apiKey, secret },
    stop: async () => {
      await child.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** The bare-Fastify baseline answering `body`, over TLS with `tlsDir`'s certificate, or plain HTTP. */
export async function startBare (body: unknown, tlsDir?: string): Promise<Child<{ port: number }>> {
  const file = join(mkdtempSync(join(tmpdir(), 'reelhouse-bare-')), 'body.json')
  writeFileSync(file, JSON.stringify(body))
  return await startChild<{ port: number }>('bench/servers/bare.ts', {
    BARE_BODY_FILE: file,
    ...(tlsDir === undefined ? {} : { BARE_TLS_DIR: tlsDir })
  })
}
