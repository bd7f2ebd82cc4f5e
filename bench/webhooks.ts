// Change → delivery latency of webhooks at a fixed rate (default 100 events/s), on the embedded default
// (SQLite) and, when BENCH_DATABASE_URL is set, on PostgreSQL: each event is a real write (an asset
// created through the assets service), delivered by the worker role's delivery loop, with its default
// settings (batch size, poll interval; no wake-up from the writer, as a worker in a process of its own
// has none), to a loopback receiver. It prints p50/p99 of the time from the write's start to the
// receiver having the event, and whether the loop kept up with the rate.
// Run: node --import tsx bench/webhooks.ts  (BENCH_EVENTS=1000 BENCH_RATE=100 BENCH_DATABASE_URL=postgres://…)
import { createServer } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createContext } from '../src/app/context.ts'
import type { Caller } from '../src/auth/caller.ts'
import { loadConfig } from '../src/config/index.ts'
import { startWebhookDelivery } from '../src/webhooks/index.ts'

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000)
const RATE = Number(process.env.BENCH_RATE ?? 100)

async function measure (databaseUrl: string | undefined): Promise<{ p50: number, p99: number, events: number, rate: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-bench-webhooks-'))
  const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: '0f'.repeat(32), LOG_LEVEL: 'silent', WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_ALLOW_HTTP: 'true', ...(databaseUrl !== undefined ? { DATABASE_URL: databaseUrl } : {}) })
  const ctx = await createContext(config)
  const sent = new Map<string, number>()
  const latencies: number[] = []
  let done: () => void = () => {}
  const finished = new Promise<void>((resolve) => { done = resolve })
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString())
      const at = sent.get(event.data?.name)
      if (event.type === 'asset.created' && at !== undefined) {
        latencies.push(performance.now() - at)
        sent.delete(event.data.name)
        if (latencies.length === EVENTS) done()
      }
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const created = await ctx.services.accounts.create(`bench ${Date.now()}`)
  const caller: Caller = { accountId: created.account.id, accountCode: created.account.code, userId: created.administrator.id, role: 'administrator' }
  await ctx.services.webhooks.create(caller, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, events: ['asset.created'] })
  const worker = startWebhookDelivery({ database: ctx.database, secrets: ctx.secrets, clock: ctx.clock }, { policy: { allowHttp: true, allowPrivate: true } })
  const start = performance.now()
  for (let i = 0; i < EVENTS; i++) {
    const due = start + (i * 1000) / RATE
    const wait = due - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    const name = `bench-${i}`
    sent.set(name, performance.now())
    await ctx.services.assets.create(caller, { asset_type: 'channel', name })
  }
  const written = performance.now() - start
  await finished
  await worker.stop()
  receiver.close()
  await ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
  latencies.sort((a, b) => a - b)
  const at = (q: number): number => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN) * 10) / 10
  return { p50: at(0.5), p99: at(0.99), events: latencies.length, rate: Math.round(EVENTS / (written / 1000)) }
}

const embedded = await measure(undefined)
console.log(`webhooks change→delivery at ${RATE} events/s, embedded (SQLite): p50 ${embedded.p50} ms, p99 ${embedded.p99} ms over ${embedded.events} events (written at ${embedded.rate}/s)`)
if (process.env.BENCH_DATABASE_URL !== undefined) {
  const pg = await measure(process.env.BENCH_DATABASE_URL)
  console.log(`webhooks change→delivery at ${RATE} events/s, PostgreSQL: p50 ${pg.p50} ms, p99 ${pg.p99} ms over ${pg.events} events (written at ${pg.rate}/s)`)
} else {
  console.log('PostgreSQL: skipped (BENCH_DATABASE_URL is not set)')
}
