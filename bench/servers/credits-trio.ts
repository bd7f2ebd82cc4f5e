// Scenario 5's server: three HTTPS api apps in one process over one context and database, differing only
// in their credits gate (off, in-process counters, Redis counters). Measured side by side, they share
// the process's luck (core, caches, JIT, heap), which otherwise moves one process against another by
// more than the 5 % this scenario looks for. Prints one JSON line with the three ports and credentials.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app/build-app.ts'
import { createContext, type AppContext } from '../../src/app/context.ts'
import { loadConfig } from '../../src/config/index.ts'
import { closeRedis, connectRedis, createCreditStore, silentLogger } from '../../src/credits/index.ts'
import { loadOrCreateTls } from '../../src/tls/index.ts'

const config = loadConfig()
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'
const ctx = await createContext(config)
await ctx.services.accounts.bootstrap()
const redis = await connectRedis(redisUrl, silentLogger)
const variants: Record<string, AppContext> = {
  off: { ...ctx, config: { ...config, creditsEnabled: false } },
  memory: ctx,
  redis: { ...ctx, credits: createCreditStore({ redis, clock: ctx.clock, keyPrefix: `bench-${process.pid}:credits:` }) }
}
const tls = await loadOrCreateTls(config)
const apps: Record<string, FastifyInstance> = {}
const ports: Record<string, number> = {}
for (const [name, variantCtx] of Object.entries(variants)) {
  const app = await buildApp(variantCtx, { variant: 'api', https: { key: tls.key, cert: tls.cert } })
  await app.listen({ host: '127.0.0.1', port: 0 })
  apps[name] = app
  ports[name] = (app.server.address() as AddressInfo).port
}
const saved = JSON.parse(readFileSync(join(config.dataDir, 'admin-credentials.json'), 'utf8')) as { api_key: string, secret: string }
console.log(JSON.stringify({ ready: true, ports, apiKey: saved.api_key, secret: saved.secret }))
process.on('SIGTERM', () => {
  Promise.all(Object.values(apps).map(async (app) => { await app.close() }))
    .then(async () => { await closeRedis(redis); await ctx.close() })
    .then(() => process.exit(0), () => process.exit(1))
})
