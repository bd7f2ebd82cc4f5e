import { call, createBenchPlayer, fixedSignedPath } from './lib/client.ts'
import { load } from './lib/load.ts'
import { startReelhouse } from './lib/servers.ts'
const server = await startReelhouse({})
const path = await createBenchPlayer(server.api)
const url = fixedSignedPath(server.api, 'GET', path)
console.log((await call(server.api, 'GET', path, undefined, url)).status)
const seconds = Number(process.env.S ?? 8)
await load({ url: `${server.api.base}${url}`, seconds: 2, connections: 10 } as any)
const cpu0 = server.child.cpuMs()
const r = await load({ url: `${server.api.base}${url}`, seconds, connections: 10 } as any)
const cpu = server.child.cpuMs() - cpu0
console.log(JSON.stringify({ rps: r.requestsPerSecond, cpuMicrosPerReq: (cpu * 1000) / r.total }))
await server.stop()
