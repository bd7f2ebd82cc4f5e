// Where one kind of request spends its server time, measured so that a loaded machine does not blur it
// (docs/benchmarks.md, "The signed GET's lean lane"):
//
//   node --import tsx bench/profile-requests.ts cpu [player|hit|health|balance]
//     V8's sampling profile of the server under closed-loop load (10 connections, PROFILE_SECONDS,
//     default 8); prints the top functions by self time, as shares of the samples.
//   node --import tsx bench/profile-requests.ts instructions [player|hit|health|balance]
//     the server under valgrind's callgrind, collecting only while PROFILE_REQUESTS (default 2000)
//     requests are sent one after the other on one kept-alive connection, after as many to warm up;
//     prints the instructions executed a request (every thread, OpenSSL, the kernel's share excluded).
//
// `player`: the signed GET /v2/players/:id on the api listener; `hit`: the cached variant's hit;
// `health`, `balance`: the ladder's rungs. PROFILE_ENV='{"LEAN_LANE":"false"}' passes environment to the server.
import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { Agent, request as httpsRequest } from 'node:https'
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { call, createBenchPlayer, fixedSignedPath, type Target } from './lib/client.ts'
import { load } from './lib/load.ts'
import { benchEnv, type ReelhouseInfo } from './lib/servers.ts'

type Kind = 'player' | 'hit' | 'health' | 'balance'
const [mode = 'cpu', kind = 'player'] = process.argv.slice(2) as ['cpu' | 'instructions', Kind]
const extraEnv = JSON.parse(process.env.PROFILE_ENV ?? '{}') as Record<string, string>

interface Server { info: ReelhouseInfo, pid: number, stop: () => Promise<void> }

/** The bench server in a process of its own, under `wrapper` (valgrind) or with `nodeArgs` (--cpu-prof). */
async function startServer (dataDir: string, wrapper: string[], nodeArgs: string[]): Promise<Server> {
  const args = [...wrapper, process.execPath, ...nodeArgs, '--import', 'tsx', 'bench/servers/reelhouse.ts']
  const child = spawn(args[0] as string, args.slice(1), {
    env: { ...process.env, LOG_LEVEL: 'silent', ...benchEnv(dataDir, { BENCH_ROLES: kind === 'hit' ? 'api,cdn' : 'api', ...extraEnv }) },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  child.stderr?.on('data', (chunk: Buffer) => { if (process.env.PROFILE_VERBOSE === '1') process.stderr.write(chunk) })
  const lines = createInterface({ input: child.stdout! })
  const info = await new Promise<ReelhouseInfo>((resolve, reject) => {
    child.once('exit', (code) => { reject(new Error(`the server exited with ${String(code)} before it was ready`)) })
    lines.on('line', (line) => { if (line.startsWith('{"ready":true')) resolve(JSON.parse(line) as ReelhouseInfo) })
  })
  return {
    info,
    pid: child.pid as number,
    stop: async () => {
      if (child.exitCode !== null) return
      await new Promise<void>((resolve) => { child.once('exit', () => { resolve() }); child.kill('SIGTERM') })
    }
  }
}

/** The URL the run requests, after making what it reads (the player; the hit's first, storing GET). */
async function targetUrl (info: ReelhouseInfo): Promise<string> {
  const api: Target = { base: `https://127.0.0.1:${info.api ?? 0}`, apiKey: info.apiKey, secret: info.secret }
  if (kind === 'health') return `${api.base}/health`
  if (kind === 'balance') return `${api.base}${fixedSignedPath(api, 'GET', '/v2/remaining_credits_and_reset_time')}`
  const path = await createBenchPlayer(api)
  if (kind === 'player') return `${api.base}${fixedSignedPath(api, 'GET', path)}`
  const cdn: Target = { ...api, base: `http://127.0.0.1:${info.cdn ?? 0}` }
  const signed = fixedSignedPath(cdn, 'GET', path)
  await call(cdn, 'GET', path, undefined, signed)
  return `${cdn.base}${signed}`
}

/** `count` GETs of `url`, one after the other on one kept-alive connection; throws on any status but 200. */
async function sequential (url: string, count: number): Promise<void> {
  const secure = url.startsWith('https:')
  const agent = secure ? new Agent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false }) : new HttpAgent({ keepAlive: true, maxSockets: 1 })
  const send = secure ? httpsRequest : httpRequest
  for (let i = 0; i < count; i++) {
    await new Promise<void>((resolve, reject) => {
      const req = send(url, { agent }, (res) => {
        res.resume()
        res.on('end', () => { res.statusCode === 200 ? resolve() : reject(new Error(`status ${String(res.statusCode)}`)) })
      })
      req.on('error', reject)
      req.end()
    })
  }
  agent.destroy()
}

async function cpuProfile (): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-profile-'))
  const profDir = join(dataDir, 'prof')
  const seconds = Number(process.env.PROFILE_SECONDS ?? 8)
  const server = await startServer(dataDir, [], ['--cpu-prof', `--cpu-prof-dir=${profDir}`])
  let stopping = 0
  try {
    const url = await targetUrl(server.info)
    await load({ url, connections: 10, seconds, warmupSeconds: 2 })
  } finally {
    const loaded = performance.now()
    await server.stop()
    stopping = performance.now() - loaded
  }
  const file = readdirSync(profDir).find((name) => name.endsWith('.cpuprofile'))
  if (file === undefined) throw new Error('no profile written')
  // PROFILE_OUT: where to keep the profile (for Chrome's DevTools or speedscope).
  if (process.env.PROFILE_OUT !== undefined) copyFileSync(join(profDir, file), process.env.PROFILE_OUT)
  printTop(JSON.parse(readFileSync(join(profDir, file), 'utf8')) as CpuProfile, seconds, stopping)
  rmSync(dataDir, { recursive: true, force: true })
}

interface CpuProfile {
  nodes: Array<{ id: number, callFrame: { functionName: string, url: string, lineNumber: number } }>
  samples: number[]
  timeDeltas: number[]
}

/** The top functions by self time over the measured seconds: those before the last `stoppingMs` of the profile, when the server was told to stop. */
function printTop (profile: CpuProfile, seconds: number, stoppingMs: number): void {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]))
  const times: number[] = []
  let t = 0
  for (const delta of profile.timeDeltas) times.push(t += delta)
  const to = t - stoppingMs * 1e3
  const from = to - seconds * 1e6
  const self = new Map<string, number>()
  let total = 0
  let idle = 0
  profile.samples.forEach((id, i) => {
    if ((times[i] as number) < from || (times[i] as number) > to) return
    const { functionName, url, lineNumber } = frames.get(id) as CpuProfile['nodes'][number]['callFrame']
    if (functionName === '(idle)') { idle += 1; return }
    const where = url === '' ? '' : ` ${url.replace(/^.*\/node_modules\//, '').replace(/^.*\/(src|bench)\//, '$1/').replace(/^node:/, '')}:${lineNumber + 1}`
    const name = `${functionName === '' ? '(anonymous)' : functionName}${where}`
    self.set(name, (self.get(name) ?? 0) + 1)
    total += 1
  })
  console.log(`${kind}: ${total} busy samples, ${idle} idle, over the last ${seconds} s; top self time:`)
  for (const [name, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_TOP ?? 25))) {
    console.log(`  ${(100 * hits / total).toFixed(1).padStart(5)} %  ${name}`)
  }
}

async function instructions (): Promise<void> {
  const count = Number(process.env.PROFILE_REQUESTS ?? 2000)
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-profile-'))
  const out = join(dataDir, 'callgrind.out')
  const server = await startServer(dataDir, ['valgrind', '--tool=callgrind', '--smc-check=all-non-file', '--collect-atstart=no', `--callgrind-out-file=${out}`], [])
  try {
    const url = await targetUrl(server.info)
    await sequential(url, count)
    control(server.pid, '-i', 'on')
    await sequential(url, count)
    control(server.pid, '-i', 'off')
  } finally {
    await server.stop()
    await sleep(500)
  }
  const files = readdirSync(dataDir).filter((name) => name.startsWith('callgrind.out'))
  let ir = 0
  for (const name of files) {
    const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dataDir, name), 'utf8'))
    ir += Number(totals?.[1] ?? 0)
  }
  console.log(`${kind}: ${Math.round(ir / count).toLocaleString('en')} instructions a request (${count} requests, ${files.length} callgrind file(s))`)
  rmSync(dataDir, { recursive: true, force: true })
}

/** Switches callgrind's collection in the server; returns once it has taken effect. */
function control (pid: number, ...args: string[]): void {
  execFileSync('callgrind_control', [...args, String(pid)], { stdio: 'ignore' })
}

if (mode === 'cpu') await cpuProfile()
else await instructions()
