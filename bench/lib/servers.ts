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

/** The environment of a bench server on `dataDir`: every port chosen by the system, credits unlimited. */
export function benchEnv (dataDir: string, env: Record<string, string> = {}): Record<string, string> {
  return {
    REELHOUSE_DATA_DIR: dataDir,
    REELHOUSE_MASTER_KEY: BENCH_MASTER_KEY,
    HOST: '127.0.0.1',
    API_PORT: '0',
    CDN_PORT: '0',
    INDEXER_PORT: '0',
    // Credits stay on (the real hot path) with an allowance no run can exhaust.
    CREDITS_PER_MINUTE: '1000000000',
    ...env
  }
}

/** A bench server process (`script`) on a fresh data directory, removed when it stops. */
async function startOnFreshDataDir<T> (script: string, env: Record<string, string>): Promise<{ child: Child<T>, dataDir: string, stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-bench-'))
  const child = await startChild<T>(script, benchEnv(dataDir, env))
  return {
    child,
    dataDir,
    stop: async () => {
      await child.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** A Reelhouse server process on a fresh data directory (SQLite unless env says otherwise). */
export async function startReelhouse (env: Record<string, string> = {}, roles = 'api'): Promise<Reelhouse> {
  const server = await startOnFreshDataDir<ReelhouseInfo>('bench/servers/reelhouse.ts', { BENCH_ROLES: roles, ...env })
  const { apiKey, secret, api, cdn } = server.child.info
  return {
    ...server,
    api: { base: `https://127.0.0.1:${api ?? 0}`, apiKey, secret },
    cdn: { base: `http://127.0.0.1:${cdn ?? 0}`, apiKey, secret }
  }
}

export interface CreditsTrio {
  child: Child<{ ports: Record<'off' | 'memory' | 'redis', number>, apiKey: string, secret: string }>
  /** The API of each credits gate, all in the one process. */
  targets: Record<'off' | 'memory' | 'redis', Target>
  stop: () => Promise<void>
}

/** Scenario 5's server (bench/servers/credits-trio.ts): one process, one API per credits gate. */
export async function startCreditsTrio (env: Record<string, string> = {}): Promise<CreditsTrio> {
  const { child, stop } = await startOnFreshDataDir<CreditsTrio['child']['info']>('bench/servers/credits-trio.ts', env)
  const { apiKey, secret, ports } = child.info
  const target = (port: number): Target => ({ base: `https://127.0.0.1:${port}`, apiKey, secret })
  return { child, targets: { off: target(ports.off), memory: target(ports.memory), redis: target(ports.redis) }, stop }
}

/**
 * The bare-Fastify baseline answering `body`, over TLS with `tlsDir`'s certificate, or plain HTTP.
 * With `headers`, it also sends those headers (a fresh `x-request-id` each time), as Reelhouse does.
 */
export async function startBare (body: unknown, tlsDir?: string, headers?: Record<string, string>): Promise<Child<{ port: number }>> {
  const file = join(mkdtempSync(join(tmpdir(), 'reelhouse-bare-')), 'body.json')
  writeFileSync(file, JSON.stringify(body))
  return await startChild<{ port: number }>('bench/servers/bare.ts', {
    BARE_BODY_FILE: file,
    ...(tlsDir === undefined ? {} : { BARE_TLS_DIR: tlsDir }),
    ...(headers === undefined ? {} : { BARE_HEADERS: JSON.stringify(headers) })
  })
}

/** Headers that describe one connection or one body's framing rather than the answer itself. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-type'])

/** The headers of an answer that a baseline must send too to answer the same thing. */
export function answerHeaders (headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !TRANSPORT_HEADERS.has(name)))
}
