// A Reelhouse server for benchmarks, in its own process: starts the roles named in BENCH_ROLES with
// the environment it was given and prints one JSON line with its ports and the administrator's
// credentials, then serves until killed.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { loadConfig, type ProcessRole } from '../../src/config/index.ts'
import { serve } from '../../src/server/serve.ts'

const config = loadConfig()
const roles = (process.env.BENCH_ROLES ?? 'api').split(',') as ProcessRole[]
const server = await serve(config, roles, () => {})
const portOf = (role: ProcessRole): number | undefined => (server.apps[role]?.server.address() as AddressInfo | undefined)?.port
const saved = JSON.parse(readFileSync(join(config.dataDir, 'admin-credentials.json'), 'utf8')) as { api_key: string, secret: string, account_id: string }
console.log(JSON.stringify({ ready: true, api: portOf('api'), cdn: portOf('cdn'), apiKey: saved.api_key, secret: saved.secret, accountId: saved.account_id }))
process.on('SIGTERM', () => { server.close().then(() => process.exit(0), () => process.exit(1)) })
