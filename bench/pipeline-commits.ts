// The server CPU a request of scenario 1's rungs (unsigned /health, the signed balance read, the signed
// player GET) for the servers of several commits, in one run: `node --import tsx bench/pipeline-commits.ts
// <commit> [<commit>…] [.]` (`.` is the working tree). Each set of servers is started afresh
// (BENCH_SETS, default 3), and within a set every commit is measured in turn, a short slice each
// (BENCH_SECONDS, default 3; BENCH_ROUNDS, default 2), so that the drift of a shared machine falls on
// every commit alike. Prints, per rung, each commit's figures and their median ratio to the first
// commit's measured in the same turn (docs/benchmarks.md, "The pipeline, step by step").
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createBenchPlayer, fixedSignedPath, type Target } from './lib/client.ts'
import { load } from './lib/load.ts'
import { startChild, type Child } from './lib/process.ts'
import { BENCH_MASTER_KEY, type ReelhouseInfo } from './lib/servers.ts'

const RUNGS = ['health', 'balance', 'player'] as const
type Rung = typeof RUNGS[number]

interface Server { child: Child<ReelhouseInfo>, urls: Record<Rung, string>, stop: () => Promise<void> }

/** The commit's sources (`src/`, `bench/`, `packages/`) and package settings in a temporary directory that resolves this checkout's node_modules. */
function checkout (commit: string): { dir: string, remove: () => void } {
  if (commit === '.') return { dir: '.', remove: () => {} }
  const dir = mkdtempSync(join(tmpdir(), 'reelhouse-commit-'))
  const archive = execFileSync('git', ['archive', commit, 'src', 'bench', 'packages', 'package.json', 'tsconfig.json'], { maxBuffer: 1 << 30 })
  execFileSync('tar', ['-x', '-C', dir], { input: archive })
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'))
  return { dir, remove: () => { rmSync(dir, { recursive: true, force: true }) } }
}

async function start (tree: string): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-bench-'))
  const child = await startChild<ReelhouseInfo>(join(tree, 'bench/servers/reelhouse.ts'), {
    REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: BENCH_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', CDN_PORT: '0', INDEXER_PORT: '0', CREDITS_PER_MINUTE: '1000000000', BENCH_ROLES: 'api'
  })
  const api: Target = { base: `https://127.0.0.1:${child.info.api ?? 0}`, apiKey: child.info.apiKey, secret: child.info.secret }
  const player = await createBenchPlayer(api)
  const urls = {
    health: `${api.base}/health`,
    balance: `${api.base}${fixedSignedPath(api, 'GET', '/v2/remaining_credits_and_reset_time')}`,
    player: `${api.base}${fixedSignedPath(api, 'GET', player)}`
  }
  return { child, urls, stop: async () => { await child.stop(); rmSync(dataDir, { recursive: true, force: true }) } }
}

const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const commits = process.argv.slice(2)
if (commits.length === 0) throw new Error('usage: bench/pipeline-commits.ts <commit> [<commit>…] [.]')
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
const sets = Number(process.env.BENCH_SETS ?? 3)
const trees = commits.map(checkout)
const cpu = new Map<string, number[]>()
try {
  for (let set = 0; set < sets; set++) {
    const servers: Server[] = []
    try {
      for (const tree of trees) servers.push(await start(tree.dir))
      for (const server of servers) for (const rung of RUNGS) await load({ url: server.urls[rung], seconds: 2, warmupSeconds: 0, connections: 10 })
      for (let round = 0; round < rounds; round++) {
        for (const rung of RUNGS) {
          for (let k = 0; k < servers.length; k++) {
            // Each turn starts with the next commit, so none is always measured first.
            const i = (k + round + set) % servers.length
            const run = await load({ url: servers[i].urls[rung], seconds, warmupSeconds: 0, connections: 10, serverCpuMs: servers[i].child.cpuMs })
            if (run.non2xx > 0 || run.errors > 0) throw new Error(`${commits[i]} ${rung}: ${run.non2xx} non-2xx, ${run.errors} errors`)
            cpu.set(`${rung} ${i}`, [...(cpu.get(`${rung} ${i}`) ?? []), run.serverCpuMicros ?? 0])
          }
        }
      }
    } finally {
      await Promise.all(servers.map(async (server) => { await server.stop() }))
    }
  }
} finally {
  for (const tree of trees) tree.remove()
}
for (const rung of RUNGS) {
  const first = cpu.get(`${rung} 0`) ?? []
  console.log(`${rung}: ` + commits.map((commit, i) => {
    const own = cpu.get(`${rung} ${i}`) ?? []
    const ratio = i === 0 ? '' : `, ×${median(own.map((x, j) => x / first[j])).toFixed(2)} of the first`
    return `${commit} ${median(own)} µs (${own.join(' ')}${ratio})`
  }).join(' | '))
}
