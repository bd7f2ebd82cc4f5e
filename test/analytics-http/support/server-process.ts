// `reelhouse serve --role api cdn` in a process of its own, for the test that kills it with SIGKILL:
// configured by the environment; prints one JSON line with its ports once it listens.
import type { AddressInfo } from 'node:net'
import { loadConfig } from '../../../src/config/index.ts'
import { serve } from '../../../src/server/serve.ts'

const server = await serve(loadConfig(), ['api', 'cdn'], () => {})
const port = (role: 'api' | 'cdn'): number => (server.apps[role]?.server.address() as AddressInfo).port
console.log(JSON.stringify({ ready: true, api: port('api'), cdn: port('cdn') }))
process.on('SIGTERM', () => { server.close().then(() => process.exit(0), () => process.exit(1)) })
