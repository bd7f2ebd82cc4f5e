// `node --import tsx bench/media-instructions.ts`: instructions a segment GET costs the server, counted by
// callgrind (valgrind), for the bare Node static server and Reelhouse (MEDIA_FILE_SEND=lane and
// =pipeline) on plain HTTP and HTTPS (docs/benchmarks.md, "Media serving"). Counts do not depend on the
// machine's load as req/s do. Each server starts under callgrind with instrumentation off, is warmed up,
// then counted over BENCH_REQUESTS GETs (10 connections); user-space instructions of all its threads.
// BENCH_WARM (1000), BENCH_REQUESTS (200), BENCH_ONLY (a comma list of bare,lane,pipeline),
// BENCH_TRANSPORTS (http,https), BENCH_MEDIA_JSON (a prepared asset to reuse) tune it.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { createInterface } from 'node:readline'
import { countWindow, dumpTotal, latestDump } from './lib/callgrind.ts'
import { prepareMedia, type PreparedMedia } from './lib/media-asset.ts'
import { benchEnv } from './lib/servers.ts'

const WARM = Number(process.env.BENCH_WARM ?? 1000)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200)
const SERVERS = (process.env.BENCH_ONLY ?? 'bare,lane,pipeline').split(',')
const TRANSPORTS = (process.env.BENCH_TRANSPORTS ?? 'http,https').split(',') as Array<'http' | 'https'>

async function count (media: PreparedMedia, server: string, transport: 'http' | 'https', out: string): Promise<number> {
  const bare = server === 'bare'
  const script = bare ? 'bench/servers/bare-static.ts' : 'bench/servers/reelhouse.ts'
  const env = bare
    ? { ...process.env, HOST: '127.0.0.1', BARE_STATIC_ROOT: media.objectsRoot, BARE_TLS_DIR: media.dataDir }
    : { ...process.env, LOG_LEVEL: 'silent', ...benchEnv(media.dataDir, { BENCH_ROLES: 'api,cdn', MEDIA_FILE_SEND: server }) }
  const file = join(out, `${server}-${transport}`)
  const child = spawn('valgrind', ['--tool=callgrind', '--smc-check=all-non-file', '--instr-atstart=no', `--callgrind-out-file=${file}.%p`, process.execPath, '--import', 'tsx', script], { env, stdio: ['ignore', 'pipe', 'ignore'] })
  try {
    const info = await new Promise<Record<string, number>>((resolve) => {
      createInterface({ input: child.stdout }).on('line', (line) => { if (line.startsWith('{')) resolve(JSON.parse(line) as Record<string, number>) })
    })
    const port = bare ? info[transport] : info[transport === 'https' ? 'api' : 'cdn']
    const path = bare ? `/${relative(media.objectsRoot, media.files.segment)}` : media.paths.segment
    const agent = transport === 'https' ? new HttpsAgent({ keepAlive: true, maxSockets: 10, rejectUnauthorized: false }) : new HttpAgent({ keepAlive: true, maxSockets: 10 })
    const get = async (): Promise<void> => {
      // A connection the server closed as idle (its keep-alive timeout, slow under valgrind) is tried again.
      for (let attempt = 0; ; attempt++) {
        try {
          await getOnce(transport, port as number, path, agent, media.segmentBytes, !bare && transport === 'https')
          return
        } catch (error) {
          if ((error as { code?: string }).code !== 'ECONNRESET' || attempt > 3) throw error
        }
      }
    }
    const counted = await countWindow(child.pid as number, get, WARM, REQUESTS)
    agent.destroy()
    return dumpTotal(await latestDump(out, `${server}-${transport}`, child.pid as number)) / counted
  } finally {
    child.kill('SIGTERM')
  }
}

async function getOnce (transport: 'http' | 'https', port: number, path: string, agent: HttpAgent, bytes: number, forwarded: boolean): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    (transport === 'https' ? httpsRequest : httpRequest)({ host: '127.0.0.1', port, path, agent, headers: forwarded ? { 'x-forwarded-proto': 'https' } : {} }, (res) => {
      let received = 0
      res.on('data', (chunk: Buffer) => { received += chunk.length })
      res.on('end', () => { if (res.statusCode === 200 && received === bytes) resolve(); else reject(new Error(`${String(res.statusCode)}, ${received} bytes`)) })
    }).on('error', reject).end()
  })
}

const reused = process.env.BENCH_MEDIA_JSON
const media = reused === undefined ? await prepareMedia(Number(process.env.BENCH_CLIP_SECONDS ?? 12)) : JSON.parse(readFileSync(reused, 'utf8')) as PreparedMedia
const out = mkdtempSync(join(tmpdir(), 'reelhouse-callgrind-'))
try {
  for (const transport of TRANSPORTS) {
    for (const server of SERVERS) {
      const perRequest = await count(media, server, transport, out)
      console.log(`segment GET (${media.segmentBytes} bytes), ${transport}, ${server === 'bare' ? 'bare Node static' : `Reelhouse MEDIA_FILE_SEND=${server}`}: ${Math.round(perRequest).toLocaleString('en')} instructions a request`)
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true })
  if (reused === undefined) rmSync(media.dataDir, { recursive: true, force: true })
}
