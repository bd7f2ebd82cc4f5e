// `node --import tsx bench/request-instructions.ts [kind…]`: the user-space instructions one request costs
// a server, counted by callgrind (valgrind) over a fixed number of requests, all threads of the server
// process, for the signed GET against the bare Fastify handler and for the cached variant's hit
// (docs/benchmarks.md, "Where the signed GET's time goes"). Unlike req/s and CPU time, counts hardly move
// with the machine's load, so two trees can be compared on a busy machine (`perf stat` would be quicker,
// but a virtual machine often has no hardware counters).
//
// Kinds (default: bare, player, player-pipeline, bare-http, hit):
//   bare, bare-headers        the bare Fastify HTTPS handler answering the player's JSON (and with our headers)
//   health, balance           the ladder's rungs: unsigned `/health`, the signed balance read
//   player                    the signed GET /v2/players/:id (the lean lane answers it)
//   player-pipeline           the same with LEAN_LANE=false (the full pipeline)
//   bare-http, bare-http-headers, hit   the cached variant's hit against the bare plain-HTTP handler
//
// Each server starts under callgrind with instrumentation off, takes COUNT_WARM (2,000) requests, then is
// counted over COUNT_REQUESTS (1,000) on 10 keep-alive connections. A major collection of V8's old
// generation, or a function still being optimised, lands in a window or not and moves the total by a
// fifth: the count without them ("steady") is printed first, the figure to compare. COUNT_TOP=n also prints the n functions with the most instructions of their
// own (callgrind_annotate; V8's optimised JavaScript has no symbol and shows as `???`), and COUNT_KEEP=dir
// keeps the callgrind files there.
import { execFile, spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { startPlayerTarget } from './lib/against-bare.ts'
import { countWindow, dumpTotal, latestDump } from './lib/callgrind.ts'
import { createBenchPlayer, fixedSignedPath, type Target } from './lib/client.ts'
import { benchEnv } from './lib/servers.ts'

const WARM = Number(process.env.COUNT_WARM ?? 2000)
const REQUESTS = Number(process.env.COUNT_REQUESTS ?? 1000)
const TOP = Number(process.env.COUNT_TOP ?? 0)
const KINDS = ['bare', 'bare-headers', 'health', 'balance', 'player', 'player-pipeline', 'bare-http', 'bare-http-headers', 'hit'] as const
type Kind = typeof KINDS[number]
const kinds = (process.argv.length > 2 ? process.argv.slice(2) : ['bare', 'player', 'player-pipeline', 'bare-http', 'hit']) as Kind[]
for (const kind of kinds) if (!KINDS.includes(kind)) throw new Error(`unknown kind ${kind}: one of ${KINDS.join(', ')}`)
const run = promisify(execFile)
/** V8's functions of a major (mark-compact) collection, whose threads callgrind counts with the rest. */
const MAJOR_GC = /ConcurrentMarking|MarkingVisitor|MarkingState|MarkCompact|Sweeper|Evacuat|IncrementalMarking|MarkingBarrier|MarkingWorklist/
/** V8's optimising compilers (TurboFan, Maglev): code that is still being optimised in the window. */
const OPTIMISING = /v8::internal::compiler::|v8::internal::maglev::|turboshaft/

interface Counted { pid: number, url: string, stop: () => void }

/** `script` under callgrind (instrumentation off until asked), once it has printed its JSON ready line. */
async function underCallgrind (script: string, env: Record<string, string>, out: string): Promise<{ pid: number, info: Record<string, unknown>, stop: () => void }> {
  const child = spawn('valgrind', ['--tool=callgrind', '--smc-check=all-non-file', '--instr-atstart=no', `--callgrind-out-file=${out}.%p`, process.execPath, '--import', 'tsx', script],
    { env: { ...process.env, LOG_LEVEL: 'silent', ...env, HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'ignore'] })
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    child.once('exit', (code) => { reject(new Error(`${script} exited with ${String(code)} before it was ready`)) })
    createInterface({ input: child.stdout }).on('line', (line) => { if (line.startsWith('{"ready":true')) resolve(JSON.parse(line) as Record<string, unknown>) })
  })
  return { pid: child.pid as number, info, stop: () => { child.kill('SIGKILL') } }
}

/** The server a kind counts, started under callgrind, and the URL it requests (its player made, its cache filled). */
async function start (kind: Kind, dir: string, out: string): Promise<Counted> {
  const via = kind === 'hit' || kind.startsWith('bare-http') ? 'cdn' : 'api'
  if (kind.startsWith('bare')) {
    // What Reelhouse answers (body, headers, certificate), from a Reelhouse run natively for the purpose.
    const ours = await startPlayerTarget(via)
    const tlsDir = join(dir, 'tls')
    mkdirSync(tlsDir, { recursive: true })
    for (const file of ['tls-key.pem', 'tls-cert.pem']) cpSync(join(ours.server.dataDir, file), join(tlsDir, file))
    writeFileSync(join(dir, 'body.json'), JSON.stringify(ours.body))
    await ours.server.stop()
    const bare = await underCallgrind('bench/servers/bare.ts', {
      BARE_BODY_FILE: join(dir, 'body.json'),
      ...(via === 'api' ? { BARE_TLS_DIR: tlsDir } : {}),
      ...(kind.endsWith('-headers') ? { BARE_HEADERS: JSON.stringify(ours.headers) } : {})
    }, out)
    return { pid: bare.pid, url: `${via === 'api' ? 'https' : 'http'}://127.0.0.1:${String(bare.info.port)}${ours.path}`, stop: bare.stop }
  }
  const dataDir = join(dir, 'data')
  mkdirSync(dataDir, { recursive: true })
  const server = await underCallgrind('bench/servers/reelhouse.ts', benchEnv(dataDir, { BENCH_ROLES: via === 'cdn' ? 'api,cdn' : 'api', ...(kind === 'player-pipeline' ? { LEAN_LANE: 'false' } : {}) }), out)
  const { apiKey, secret } = server.info as { apiKey: string, secret: string }
  const api: Target = { base: `https://127.0.0.1:${String(server.info.api)}`, apiKey, secret }
  if (kind === 'health') return { ...server, url: `${api.base}/health` }
  if (kind === 'balance') return { ...server, url: `${api.base}${fixedSignedPath(api, 'GET', '/v2/remaining_credits_and_reset_time')}` }
  const path = await createBenchPlayer(api)
  const target = via === 'cdn' ? { ...api, base: `http://127.0.0.1:${String(server.info.cdn)}` } : api
  return { ...server, url: `${target.base}${fixedSignedPath(target, 'GET', path)}` }
}

/** GETs of `url` on 10 keep-alive connections; a connection the server closed as idle (slow under valgrind) is tried again. */
function client (url: string): { get: () => Promise<void>, destroy: () => void } {
  const https = url.startsWith('https:')
  const agent = https ? new HttpsAgent({ keepAlive: true, maxSockets: 10, rejectUnauthorized: false }) : new HttpAgent({ keepAlive: true, maxSockets: 10 })
  const once = async (): Promise<void> => {
    await new Promise<void>((resolve, reject) => {
      (https ? httpsRequest : httpRequest)(url, { agent }, (res) => {
        res.resume()
        res.on('end', () => { if (res.statusCode === 200) resolve(); else reject(new Error(`${url}: ${String(res.statusCode)}`)) })
      }).on('error', reject).end()
    })
  }
  return {
    get: async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          await once()
          return
        } catch (error) {
          if ((error as { code?: string }).code !== 'ECONNRESET' || attempt > 3) throw error
        }
      }
    },
    destroy: () => { agent.destroy() }
  }
}

async function count (kind: Kind, dir: string): Promise<void> {
  const out = join(dir, `${kind}.out`)
  const server = await start(kind, dir, out)
  const { get, destroy } = client(server.url)
  try {
    const counted = await countWindow(server.pid, get, WARM, REQUESTS)
    const file = await latestDump(dir, `${kind}.out`, server.pid)
    const total = dumpTotal(file)
    const { stdout } = await run('callgrind_annotate', ['--inclusive=no', '--threshold=100', file], { maxBuffer: 256 * 1024 * 1024 })
    const rows = stdout.split('\n').filter((line) => /^\s*[\d,]+ \(/.test(line)).slice(1)
    // A major collection (marking and sweeping the old generation) falls in a window or not: counted apart,
    // the rest per request is steady from run to run.
    const sum = (pattern: RegExp): number => rows.filter((row) => pattern.test(row)).reduce((n, row) => n + Number(/^\s*([\d,]+)/.exec(row)?.[1]?.replace(/,/g, '') ?? 0), 0)
    const major = sum(MAJOR_GC)
    const compiling = sum(OPTIMISING)
    const per = (n: number): string => Math.round(n / counted).toLocaleString('en')
    console.log(`${kind}: ${per(total - major - compiling)} instructions a request steady, ${per(total)} in all, of which major GC ${per(major)} and optimising compiler ${per(compiling)} (${counted} requests counted)`)
    for (const row of rows.slice(0, TOP)) console.log(`    ${row.trim().replace(/\s+/g, ' ').slice(0, 160)}`)
    if (process.env.COUNT_KEEP !== undefined) cpSync(file, join(process.env.COUNT_KEEP, `${kind}.callgrind`))
  } finally {
    destroy()
    server.stop()
  }
}

for (const kind of kinds) {
  const dir = mkdtempSync(join(tmpdir(), 'reelhouse-instructions-'))
  try {
    await count(kind, dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
