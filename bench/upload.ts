// Upload throughput: `reelhouse upload` of a large file (default 2 GiB; BENCH_UPLOAD_MB) to a server in
// its own process, over HTTPS on loopback, to the file store in the same file system, against `cp` of the
// same file to that file system. Reports MB/s of each, the ratio, and the peak RSS of the server, of the
// uploading CLI and of cp (VmHWM / GNU time): memory must stay flat whatever the file's size.
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { report, writeResults } from './lib/report.ts'
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

const scratch = mkdtempSync(join(tmpdir(), 'reelhouse-bench-upload-'))
try {
  const file = join(scratch, 'source.bin')
  execFileSync('sh', ['-c', `head -c ${MB}M /dev/urandom > '${file}'`])
  const bytes = statSync(file).size

  const cp = await timed('cp', [file, join(scratch, 'copy.bin')])
  rmSync(join(scratch, 'copy.bin'))

  const port = await freePort()
  const server = await startReelhouse({ API_PORT: String(port), PUBLIC_API_URL: `https://127.0.0.1:${port}` })
  try {
    const rssBefore = server.child.rssMiB()
    const cpuBefore = server.child.cpuMs()
    const upload = await timed(process.execPath, ['bin/reelhouse.mjs', 'upload', file, '--no-wait', '--base-url', server.api.base], {
      ...process.env, REELHOUSE_DATA_DIR: server.dataDir, XDG_CONFIG_HOME: join(scratch, 'config')
    })
    const serverPeak = peakRssMiB(server.child.pid)
    const serverCpuSeconds = (server.child.cpuMs() - cpuBefore) / 1000
    const uploadMBs = bytes / 1e6 / upload.seconds
    const cpMBs = bytes / 1e6 / cp.seconds
    report({
      scenario: `9 upload of ${MB} MiB: reelhouse upload (8 MiB chunks, 4 in flight, HTTPS, file store) vs cp`,
      ratio: { value: uploadMBs / cpMBs, of: 'MB/s of the upload (create to 200 of upload_status) / MB/s of cp to the same disk', goal: '≥ 0.8 with flat memory', met: uploadMBs / cpMBs >= 0.8 },
      figures: {
        bytes,
        uploadSeconds: Number(upload.seconds.toFixed(2)),
        uploadMBs: Number(uploadMBs.toFixed(1)),
        cpSeconds: Number(cp.seconds.toFixed(2)),
        cpMBs: Number(cpMBs.toFixed(1)),
        serverCpuSeconds: Number(serverCpuSeconds.toFixed(2)),
        cliCpuSeconds: Number(upload.cpuSeconds.toFixed(2)),
        serverRssBeforeMiB: Math.round(rssBefore),
        serverPeakRssMiB: Math.round(serverPeak),
        cliPeakRssMiB: Math.round(upload.peakMiB),
        cpPeakRssMiB: Math.round(cp.peakMiB)
      }
    })
  } finally {
    await server.stop()
  }
  console.log(`results: ${writeResults('upload')}`)
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
