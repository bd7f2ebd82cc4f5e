// Where one kind of request spends its server time (docs/benchmarks.md, "The signed GET's lean lane"):
//
//   node --import tsx bench/profile-requests.ts [player|hit|health|balance]
//
// V8's sampling profile of the server (every 100 µs) under closed-loop load (10 connections,
// PROFILE_SECONDS, default 8, after 4 s of warm-up); prints the server's CPU time a request over the
// measured seconds (all threads, from /proc), the top functions by self time over the same seconds as
// shares of the busy samples (PROFILE_TOP lines, default 25), and the busy samples a request. The
// sampler counts wall time on the main thread, including time the thread was preempted: on a loaded
// machine compare runs taken side by side, never absolutes.
//
// `player`: the signed GET /v2/players/:id on the api listener; `hit`: the cached variant's hit;
// `health`, `balance`: the ladder's rungs. PROFILE_ENV='{"LEAN_LANE":"false"}' passes environment to the server.
import { spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { call, createBenchPlayer, fixedSignedPath, type Target } from './lib/client.ts'
import { load } from './lib/load.ts'
import { benchEnv, type ReelhouseInfo } from './lib/servers.ts'

type Kind = 'player' | 'hit' | 'health' | 'balance'
const kind = (process.argv[2] ?? 'player') as Kind
const extraEnv = JSON.parse(process.env.PROFILE_ENV ?? '{}') as Record<string, string>

interface Server { info: ReelhouseInfo, pid: number, stop: () => Promise<void> }

/** The bench server in a process of its own, with `nodeArgs` (--cpu-prof). */
async function startServer (dataDir: string, nodeArgs: string[]): Promise<Server> {
  const args = [process.execPath, ...nodeArgs, '--import', 'tsx', 'bench/servers/reelhouse.ts']
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

/** User and system CPU time of a process so far, in ms (/proc, 10 ms ticks). */
function cpuMsOf (pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

async function cpuProfile (): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-profile-'))
  const profDir = join(dataDir, 'prof')
  const seconds = Number(process.env.PROFILE_SECONDS ?? 8)
  // Every 100 µs rather than V8's 1 ms: enough samples in a few seconds for shares of a percent.
  const server = await startServer(dataDir, ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${profDir}`])
  let stopping = 0
  let requests = 0
  let cpuMicros = Number.NaN
  try {
    const url = await targetUrl(server.info)
    const measured = await load({ url, connections: 10, seconds, warmupSeconds: 4, serverCpuMs: () => cpuMsOf(server.pid) })
    requests = measured.total
    cpuMicros = measured.serverCpuMicros ?? Number.NaN
  } finally {
    const loaded = performance.now()
    await server.stop()
    stopping = performance.now() - loaded
  }
  const file = readdirSync(profDir).find((name) => name.endsWith('.cpuprofile'))
  if (file === undefined) throw new Error('no profile written')
  // PROFILE_OUT: where to keep the profile (for Chrome's DevTools or speedscope).
  if (process.env.PROFILE_OUT !== undefined) copyFileSync(join(profDir, file), process.env.PROFILE_OUT)
  console.log(`${kind}: server CPU a request (all threads, /proc): ${cpuMicros} µs`)
  printTop(JSON.parse(readFileSync(join(profDir, file), 'utf8')) as CpuProfile, seconds, stopping, requests)
  rmSync(dataDir, { recursive: true, force: true })
}

interface CpuProfile {
  nodes: Array<{ id: number, callFrame: { functionName: string, url: string, lineNumber: number } }>
  samples: number[]
  timeDeltas: number[]
}

/** The top functions by self time over the measured seconds: those before the last `stoppingMs` of the profile, when the server was told to stop. */
function printTop (profile: CpuProfile, seconds: number, stoppingMs: number, requests: number): void {
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
  console.log(`${kind}: ${requests} requests in ${seconds} s (the server took ${Math.round(stoppingMs)} ms to stop after); ${total} busy samples (${idle} idle), ${(total / Math.max(requests, 1)).toFixed(2)} a request; top self time:`)
  for (const [name, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_TOP ?? 25))) {
    console.log(`  ${(100 * hits / total).toFixed(1).padStart(5)} %  ${name}`)
  }
}

await cpuProfile()
