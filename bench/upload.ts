// Upload throughput: `reelhouse upload` of a large file (default 2 GiB; BENCH_UPLOAD_MB) to a server in
// its own process, over HTTPS on loopback, to the file store in the same file system, against `cp` of the
// same file to that file system, `cp` followed by `sync` of the copy (the copy on disk, as a chunk is
// before its 200), and a bare Fastify HTTPS handler writing the same 8 MiB PUTs at their offsets of one
// file (bench/servers/bare-upload.ts: the least a chunk PUT must do on this machine), in interleaved
// rounds (BENCH_UPLOAD_ROUNDS, default 2), and `reelhouse upload --tus` of the same file (a direct upload
// over tus, 64 MiB PATCHes by default (BENCH_TUS_CHUNK_MIB), one at a time; goal ≥ 0.9× the chunk upload). Reports MB/s of each, the
// ratios, the peak RSS of the server and of the uploading CLI (VmHWM / GNU time), and the server's RSS
// sampled every 250 ms during each upload (thinned to 16 points per round): memory must stay flat
// whatever the file's size. On the file store a tus PATCH is written at its offset as it arrives, as a
// chunk PUT is (no spool).
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { report, writeResults } from './lib/report.ts'
import { startChild } from './lib/process.ts'
import { startReelhouse } from './lib/servers.ts'

const MB = Number(process.env.BENCH_UPLOAD_MB ?? 2048)

async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => { resolve() }))
  return port
}

/** Runs a command under GNU time: wall seconds and peak RSS in MiB. */
async function timed (command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ seconds: number, peakMiB: number, cpuSeconds: number, stderr: string }> {
  const started = process.hrtime.bigint()
  const child = spawn('/usr/bin/time', ['-f', 'PEAK_KB=%M CPU_S=%U+%S', command, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const [code] = await once(child, 'close') as [number]
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  if (code !== 0) throw new Error(`${command} exited ${code}: ${stderr}`)
  const cpu = /CPU_S=([\d.]+)\+([\d.]+)/.exec(stderr)
  return { seconds, peakMiB: Number(/PEAK_KB=(\d+)/.exec(stderr)?.[1] ?? 0) / 1024, cpuSeconds: Number(cpu?.[1] ?? 0) + Number(cpu?.[2] ?? 0), stderr }
}

function peakRssMiB (pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
}

const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 2)
// BENCH_TUS_CHUNK_MIB: the tus PATCH size the CLI is given (default 64, the CLI's own default for --tus).
const TUS_CHUNK_MIB = Number(process.env.BENCH_TUS_CHUNK_MIB ?? 64)

/**
 * Samples the server's RSS every 250 ms while `work` runs: memory over time, to tell flat from growing
 * (a peak alone does not). Answers the work's result and the samples, thinned to at most 16.
 */
async function sampledRss<T> (rss: () => number, work: () => Promise<T>): Promise<{ result: T, rssMiB: number[] }> {
  const samples: number[] = [rss()]
  const timer = setInterval(() => { samples.push(rss()) }, 250)
  try {
    const result = await work()
    samples.push(rss())
    const step = Math.max(1, Math.ceil(samples.length / 16))
    return { result, rssMiB: samples.filter((_, index) => index % step === 0 || index === samples.length - 1).map((value) => Math.round(value)) }
  } finally {
    clearInterval(timer)
  }
}

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

const scratch = mkdtempSync(join(tmpdir(), 'reelhouse-bench-upload-'))
try {
  const file = join(scratch, 'source.bin')
  execFileSync('sh', ['-c', `head -c ${MB}M /dev/urandom > '${file}' && sync`])
  const bytes = statSync(file).size
  const copy = join(scratch, 'copy.bin')

  const port = await freePort()
  const server = await startReelhouse({ API_PORT: String(port), PUBLIC_API_URL: `https://127.0.0.1:${port}` })
  const bare = await startChild<{ port: number }>('bench/servers/bare-upload.ts', { BARE_TLS_DIR: server.dataDir, BARE_UPLOAD_FILE: join(scratch, 'bare.bin') })
  try {
    const rssBefore = server.child.rssMiB()
    const runs = { cp: [] as number[], cpSync: [] as number[], bare: [] as number[], upload: [] as number[], serverCpu: [] as number[], cliCpu: [] as number[], bareCpu: [] as number[], cliPeak: [] as number[], tus: [] as number[], tusServerCpu: [] as number[], tusCliPeak: [] as number[], uploadRss: [] as number[][], tusRss: [] as number[][], bareRss: [] as number[][] }
    // Interleaved rounds, each step starting with nothing left to write back and the source read once
    // (this machine's memory manager evicts idle pages: a cold source would time its disk reads instead):
    // the machine's noise falls on all four alike.
    const settle = (): void => { execFileSync('sh', ['-c', `sync && cat '${file}' > /dev/null`]) }
    for (let round = 0; round < ROUNDS; round++) {
      settle()
      runs.cp.push((await timed('cp', [file, copy])).seconds)
      rmSync(copy)
      settle()
      runs.cpSync.push((await timed('sh', ['-c', `cp '${file}' '${copy}' && sync '${copy}'`])).seconds)
      rmSync(copy)
      settle()
      const bareCpuBefore = bare.cpuMs()
      const bareRun = await sampledRss(bare.rssMiB, async () => await timed(process.execPath, ['--import', 'tsx', 'bench/clients/bare-upload.ts', file, `https://127.0.0.1:${bare.info.port}`, join(server.dataDir, 'tls-cert.pem')]))
      runs.bare.push(bareRun.result.seconds)
      runs.bareRss.push(bareRun.rssMiB)
      runs.bareCpu.push((bare.cpuMs() - bareCpuBefore) / 1000)
      rmSync(join(scratch, 'bare.bin'))
      settle()
      const cpuBefore = server.child.cpuMs()
      const { result: upload, rssMiB: uploadRss } = await sampledRss(server.child.rssMiB, async () => await timed(process.execPath, ['bin/reelhouse.mjs', 'upload', file, '--no-wait', '--base-url', server.api.base], {
        ...process.env, REELHOUSE_DATA_DIR: server.dataDir, XDG_CONFIG_HOME: join(scratch, `config-${round}`)
      }))
      runs.uploadRss.push(uploadRss)
      runs.upload.push(upload.seconds)
      runs.serverCpu.push((server.child.cpuMs() - cpuBefore) / 1000)
      runs.cliCpu.push(upload.cpuSeconds)
      runs.cliPeak.push(upload.peakMiB)
      settle()
      const tusCpuBefore = server.child.cpuMs()
      const { result: overTus, rssMiB: tusRss } = await sampledRss(server.child.rssMiB, async () => await timed(process.execPath, ['bin/reelhouse.mjs', 'upload', file, '--tus', '--chunk-size', String(TUS_CHUNK_MIB * 1024 * 1024), '--no-wait', '--force', '--base-url', server.api.base], {
        ...process.env, REELHOUSE_DATA_DIR: server.dataDir, XDG_CONFIG_HOME: join(scratch, `config-tus-${round}`)
      }))
      runs.tusRss.push(tusRss)
      runs.tus.push(overTus.seconds)
      runs.tusServerCpu.push((server.child.cpuMs() - tusCpuBefore) / 1000)
      runs.tusCliPeak.push(overTus.peakMiB)
    }
    const serverPeak = peakRssMiB(server.child.pid)
    const mbs = (seconds: number): number => Number((bytes / 1e6 / seconds).toFixed(1))
    const [cpMBs, cpSyncMBs, bareMBs, uploadMBs] = [runs.cp, runs.cpSync, runs.bare, runs.upload].map((seconds) => mbs(median(seconds))) as [number, number, number, number]
    // cp's time swings by 10x here (0.6-5 s for 2 GiB: the memory manager evicts and the host backs pages
    // lazily), so the ratio is taken against its fastest run: a slow cp must not make the upload look good.
    const fastestCpMBs = mbs(Math.min(...runs.cp))
    const tusMBs = mbs(median(runs.tus))
    report({
      scenario: `9 upload of ${MB} MiB: reelhouse upload (8 MiB chunks, 4 in flight, HTTPS, file store) vs cp`,
      ratio: { value: uploadMBs / fastestCpMBs, of: 'MB/s of the upload (create to 200 of upload_status, median of interleaved rounds) / MB/s of the fastest cp to the same disk', goal: '≥ 0.8 with flat memory', met: uploadMBs / fastestCpMBs >= 0.8 },
      figures: {
        bytes,
        rounds: ROUNDS,
        uploadSeconds: runs.upload.map((s) => Number(s.toFixed(2))),
        cpSeconds: runs.cp.map((s) => Number(s.toFixed(2))),
        cpThenSyncSeconds: runs.cpSync.map((s) => Number(s.toFixed(2))),
        bareSeconds: runs.bare.map((s) => Number(s.toFixed(2))),
        uploadMBs,
        cpMBs,
        fastestCpMBs,
        cpThenSyncMBs: cpSyncMBs,
        bareMBs,
        ofCpThenSync: Number((uploadMBs / cpSyncMBs).toFixed(3)),
        ofBare: Number((uploadMBs / bareMBs).toFixed(3)),
        serverCpuSeconds: runs.serverCpu.map((s) => Number(s.toFixed(2))),
        bareServerCpuSeconds: runs.bareCpu.map((s) => Number(s.toFixed(2))),
        cliCpuSeconds: runs.cliCpu.map((s) => Number(s.toFixed(2))),
        serverRssBeforeMiB: Math.round(rssBefore),
        serverPeakRssMiB: Math.round(serverPeak),
        cliPeakRssMiB: Math.round(Math.max(...runs.cliPeak)),
        serverRssOverTimeMiB: runs.uploadRss,
        bareServerRssOverTimeMiB: runs.bareRss
      }
    })
    report({
      scenario: `9b upload of ${MB} MiB over tus: reelhouse upload --tus (${TUS_CHUNK_MIB} MiB PATCHes, HTTPS, file store) vs the chunk upload`,
      ratio: { value: tusMBs / uploadMBs, of: 'MB/s of the tus upload (direct upload created to the last PATCH\'s 204, median) / MB/s of the chunk upload', goal: '≥ 0.9 with flat memory', met: tusMBs / uploadMBs >= 0.9 },
      figures: {
        bytes,
        tusSeconds: runs.tus.map((s) => Number(s.toFixed(2))),
        tusMBs,
        uploadMBs,
        bareMBs,
        ofChunkUpload: Number((tusMBs / uploadMBs).toFixed(3)),
        ofBare: Number((tusMBs / bareMBs).toFixed(3)),
        serverCpuSeconds: runs.tusServerCpu.map((s) => Number(s.toFixed(2))),
        serverPeakRssMiB: Math.round(serverPeak),
        cliPeakRssMiB: Math.round(Math.max(...runs.tusCliPeak)),
        serverRssOverTimeMiB: runs.tusRss
      }
    })
  } finally {
    await bare.stop()
    await server.stop()
  }
  console.log(`results: ${writeResults('upload')}`)
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
