// The indexer and worker roles in a process of their own, for tests that kill it: started by
// `startIndexerProcess`, configured by the environment like `reelhouse serve --role indexer worker`,
// with the consumer's lease shortened by TEST_LEASE_MS so a restart takes over a dead one's claims soon.
import type { AddressInfo } from 'node:net'
import { loadConfig } from '../../../src/config/index.ts'
import { serve } from '../../../src/server/serve.ts'

const config = loadConfig()
const server = await serve(config, ['indexer', 'worker'], () => {}, {
  worker: { consumer: { leaseMs: Number(process.env.TEST_LEASE_MS ?? 60_000), batchSize: Number(process.env.TEST_BATCH_SIZE ?? 500) } }
})
const port = (server.apps.indexer?.server.address() as AddressInfo).port
console.log(JSON.stringify({ ready: true, port }))
process.on('SIGTERM', () => { server.close().then(() => process.exit(0), () => process.exit(1)) })
