#!/usr/bin/env node
// A throw-away single-node Ceph with the S3 gateway (RGW), for tests and local runs. Everything lives
// under one folder: configuration, keyring, monitor data, logs, sockets, pids. The OSD keeps its
// objects in memory (memstore), so stopping it loses every object.
//
//   node scripts/rgw.mjs start <dir>   prints MEDIA_STORE_URL=…, writes it to <dir>/url, pids to <dir>/pids
//   node scripts/rgw.mjs stop <dir>
//
// Why each ceph.conf setting is there: docs/media-store.md ("Running Ceph RGW locally").
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { resolve, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

const RGW_NAME = 'client.rgw.reelhouse'
const OUR_SUBDIRS = ['mon', 'osd', 'run', 'log', 'rgw']
const OUR_FILES = ['ceph.conf', 'keyring', 'monmap', 'url', 'pids']

class RgwError extends Error {}

/** Set once this run has started a daemon: only then does a failed start stop what is in <dir>/pids. */
let launched = false

function usage () {
  console.error('usage: node scripts/rgw.mjs start|stop <dir>')
  process.exit(2)
}

async function main () {
  const [command, dirArg] = process.argv.slice(2)
  if (dirArg === undefined || !['start', 'stop'].includes(command)) usage()
  const dir = resolve(dirArg)
  try {
    if (command === 'start') await start(dir)
    else await stop(dir)
  } catch (error) {
    console.error(`rgw.mjs ${command}: ${error instanceof RgwError ? error.message : error.stack}`)
    if (command === 'start' && launched) await stop(dir, { quiet: true }).catch(() => {})
    process.exit(1)
  }
}

/** Asks the kernel for a free loopback port (listen on 0), then releases it for the daemon. */
function freePort () {
  // eslint-disable-next-line promise/param-names -- `resolve` here is node:path's.
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolvePort(port))
    })
  })
}

function paths (dir) {
  return {
    conf: join(dir, 'ceph.conf'),
    keyring: join(dir, 'keyring'),
    monmap: join(dir, 'monmap'),
    pids: join(dir, 'pids'),
    url: join(dir, 'url'),
    log: (name) => join(dir, 'log', `${name}.log`)
  }
}

function cephConf (dir, fsid, monPort, rgwPort) {
  return `[global]
fsid = ${fsid}
mon initial members = a
mon host = v1:127.0.0.1:${monPort}
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind msgr2 = false
ms bind ipv6 = false
ms mon client mode = crc
ms client mode = crc
ms service mode = crc
ms cluster mode = crc
auth cluster required = none
auth service required = none
auth client required = none
keyring = ${dir}/keyring
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
log file = ${dir}/log/$name.log
log to stderr = false
err to stderr = false
mon data = ${dir}/mon/$cluster-$id
osd data = ${dir}/osd/$cluster-$id
osd objectstore = memstore
memstore device bytes = 4294967296
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon allow pool delete = true
mon max pg per osd = 1000
osd crush chooseleaf type = 0
osd crush update on start = false
osd class update on start = false
mon warn on pool no redundancy = false

[client.rgw.reelhouse]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
rgw enable usage log = false
rgw enable ops log = false
`
}

/** Runs a ceph tool to completion; a failure throws with its output. */
function run (dir, tool, args, { timeoutMs = 60_000 } = {}) {
  const result = spawnSync(tool, args, { cwd: dir, encoding: 'utf8', timeout: timeoutMs })
  if (result.error !== undefined) throw new RgwError(`${tool} ${args.join(' ')}: ${result.error.message}`)
  if (result.status !== 0) {
    throw new RgwError(`${tool} ${args.join(' ')} exited with ${result.status ?? result.signal}:\n${(result.stderr + result.stdout).trim()}`)
  }
  return result.stdout
}

/** `ceph` CLI against our cluster; each call bounded so a monitor that never answers cannot hang us. */
function ceph (dir, args, options) {
  return run(dir, 'ceph', ['-c', join(dir, 'ceph.conf'), '--connect-timeout', '10', ...args], options)
}

/** Starts a daemon in the foreground (`-f`) as our own child, detached so it outlives this script. */
function daemon (dir, name, tool, args) {
  const out = openSync(paths(dir).log(`${name}.stdout`), 'a')
  const child = spawn(tool, ['-f', ...args], { cwd: dir, detached: true, stdio: ['ignore', out, out] })
  closeSync(out)
  child.unref()
  return child.pid
}

function tail (file, lines = 25) {
  if (!existsSync(file)) return `(no ${file})`
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
}

function alive (pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Polls `probe` until it returns a value other than undefined; on timeout the error carries the log tails. */
async function waitFor (what, probe, { timeoutMs, logs, pid }) {
  const deadline = Date.now() + timeoutMs
  let last = ''
  while (Date.now() < deadline) {
    if (pid !== undefined && !alive(pid)) break
    try {
      const value = await probe()
      if (value !== undefined) return value
    } catch (error) {
      last = error.message
    }
    await sleep(250)
  }
  const reason = pid !== undefined && !alive(pid) ? 'the process exited' : `not within ${timeoutMs / 1000} s`
  const tails = logs.map((file) => `--- ${file}\n${tail(file)}`).join('\n')
  throw new RgwError(`${what}: ${reason}${last === '' ? '' : ` (last error: ${last.split('\n')[0]})`}\n${tails}`)
}

function readPids (dir) {
  const file = paths(dir).pids
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => {
    const [name, pid] = line.split(' ')
    return { name, pid: Number(pid) }
  })
}

function recordPid (dir, name, pid) {
  launched = true
  writeFileSync(paths(dir).pids, readPids(dir).concat({ name, pid }).map((p) => `${p.name} ${p.pid}`).join('\n') + '\n')
}

/** True when `pid` is still one of our daemons: its command line names our ceph.conf, so a reused pid is never signalled. */
function isOurs (dir, pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(join(dir, 'ceph.conf'))
  } catch {
    return false
  }
}

async function start (dir) {
  const p = paths(dir)
  const begun = Date.now()
  mkdirSync(dir, { recursive: true })
  if (readPids(dir).some(({ pid }) => isOurs(dir, pid))) {
    throw new RgwError(`a cluster is already running in ${dir}; run "node scripts/rgw.mjs stop ${dir}" first`)
  }
  const foreign = readdirSync(dir).filter((name) => !OUR_SUBDIRS.includes(name) && !OUR_FILES.includes(name))
  if (foreign.length > 0) throw new RgwError(`${dir} holds files this script did not make (${foreign.slice(0, 3).join(', ')}); give it an empty folder`)
  for (const name of [...OUR_SUBDIRS, ...OUR_FILES]) rmSync(join(dir, name), { recursive: true, force: true })
  for (const name of OUR_SUBDIRS) mkdirSync(join(dir, name), { recursive: true })

  const monPort = await freePort()
  let rgwPort = await freePort()
  while (rgwPort === monPort) rgwPort = await freePort()
  const fsid = randomUUID()
  writeFileSync(p.conf, cephConf(dir, fsid, monPort, rgwPort))
  const conf = ['-c', p.conf]

  // Even with authentication off, the monitor's mkfs wants a keyring holding the mon. key.
  run(dir, 'ceph-authtool', ['--create-keyring', p.keyring, '--gen-key', '-n', 'mon.', '--cap', 'mon', 'allow *'])
  run(dir, 'ceph-authtool', [p.keyring, '--gen-key', '-n', 'client.admin', '--cap', 'mon', 'allow *', '--cap', 'osd', 'allow *', '--cap', 'mgr', 'allow *'])
  run(dir, 'monmaptool', ['--create', '--fsid', fsid, '--addv', 'a', `[v1:127.0.0.1:${monPort}]`, p.monmap])
  run(dir, 'ceph-mon', [...conf, '--mkfs', '-i', 'a', '--monmap', p.monmap, '--keyring', p.keyring])

  const monPid = daemon(dir, 'mon.a', 'ceph-mon', [...conf, '-i', 'a'])
  recordPid(dir, 'mon.a', monPid)
  await waitFor('the monitor to answer', () => { ceph(dir, ['mon', 'stat']); return true },
    { timeoutMs: 30_000, logs: [p.log('mon.a'), p.log('mon.a.stdout')], pid: monPid })

  const osdUuid = randomUUID()
  const osdId = ceph(dir, ['osd', 'create', osdUuid]).trim()
  if (!/^\d+$/.test(osdId)) throw new RgwError(`ceph osd create answered ${JSON.stringify(osdId)}`)
  mkdirSync(join(dir, 'osd', `ceph-${osdId}`), { recursive: true })
  // The OSD must boot with the uuid it was created under, or the monitor ignores it ("different fsid").
  run(dir, 'ceph-osd', [...conf, '-i', osdId, '--mkfs', '--osd-uuid', osdUuid])
  ceph(dir, ['osd', 'crush', 'add-bucket', 'node', 'host'])
  ceph(dir, ['osd', 'crush', 'move', 'node', 'root=default'])
  ceph(dir, ['osd', 'crush', 'add', `osd.${osdId}`, '1.0', 'host=node'])
  const osdPid = await startOsd(dir, osdId)

  const rgwPid = daemon(dir, RGW_NAME, 'radosgw', [...conf, '-n', RGW_NAME])
  recordPid(dir, 'rgw', rgwPid)
  const rgwLogs = [p.log(RGW_NAME), p.log(`${RGW_NAME}.stdout`)]
  await waitFor('the S3 gateway to answer HTTP', async () => {
    const response = await fetch(`http://127.0.0.1:${rgwPort}/`, { signal: AbortSignal.timeout(5000) })
    await response.arrayBuffer()
    return true
  }, { timeoutMs: 90_000, logs: rgwLogs, pid: rgwPid })

  const accessKey = 'RH' + randomBytes(9).toString('hex').toUpperCase()
  const secret = randomBytes(20).toString('hex')
  run(dir, 'radosgw-admin', [...conf, '-n', 'client.admin', 'user', 'create', '--uid=reelhouse', '--display-name=Reelhouse tests',
    `--access-key=${accessKey}`, `--secret=${secret}`])
  // The user is visible to the gateway once it reloads it; an authenticated ListBuckets tells us when.
  const url = `s3+http://${accessKey}:${secret}@127.0.0.1:${rgwPort}/reelhouse`
  await waitFor('the S3 user to be accepted', async () => {
    const response = await signedListBuckets(rgwPort, accessKey, secret)
    return response === 200 ? true : undefined
  }, { timeoutMs: 30_000, logs: rgwLogs, pid: rgwPid })

  writeFileSync(p.url, url + '\n', { mode: 0o600 })
  console.log(`MEDIA_STORE_URL=${url}`)
  console.log(`pids: mon ${monPid}, osd ${osdPid}, rgw ${rgwPid}`)
  console.log(`started in ${((Date.now() - begun) / 1000).toFixed(1)} s; stop with: node scripts/rgw.mjs stop ${dir}`)
}

/**
 * Starts the OSD and waits until the monitor counts it up. An OSD that exits while booting is started
 * again (twice at most): on a loaded machine it can reach the monitor before it knows the cluster's
 * fsid and be turned away.
 */
async function startOsd (dir, osdId) {
  const logs = [paths(dir).log(`osd.${osdId}`), paths(dir).log(`osd.${osdId}.stdout`)]
  for (let attempt = 1; ; attempt++) {
    const pid = daemon(dir, `osd.${osdId}`, 'ceph-osd', ['-c', paths(dir).conf, '-i', osdId])
    recordPid(dir, `osd.${osdId}`, pid)
    try {
      await waitFor('the OSD to come up', () => {
        const stat = JSON.parse(ceph(dir, ['osd', 'stat', '-f', 'json']))
        return (stat.num_up_osds ?? stat.osdmap?.num_up_osds) >= 1 ? true : undefined
      }, { timeoutMs: 60_000, logs, pid })
      return pid
    } catch (error) {
      if (alive(pid) || attempt === 3) throw error
      console.error(`osd.${osdId} exited while booting; starting it again`)
    }
  }
}

async function stop (dir, { quiet = false } = {}) {
  const pids = readPids(dir).reverse() // rgw, osd, mon: clients before the monitor they talk to
  for (const { pid } of pids) if (isOurs(dir, pid)) process.kill(pid, 'SIGTERM')
  const deadline = Date.now() + 15_000
  while (pids.some(({ pid }) => isOurs(dir, pid)) && Date.now() < deadline) await sleep(100)
  for (const { name, pid } of pids) {
    if (isOurs(dir, pid)) {
      if (!quiet) console.error(`${name} (${pid}) ignored SIGTERM; sending SIGKILL`)
      process.kill(pid, 'SIGKILL')
    }
  }
  rmSync(paths(dir).pids, { force: true })
  if (!quiet) console.log(`stopped ${pids.map(({ name, pid }) => `${name} ${pid}`).join(', ') || 'nothing (no pids recorded)'}`)
}

/**
 * An AWS Signature V4 ListBuckets, written out with node:crypto so the script needs no dependency.
 * @see https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
 */
async function signedListBuckets (port, accessKey, secret) {
  const { createHash, createHmac } = await import('node:crypto')
  const host = `127.0.0.1:${port}`
  const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '')
  const day = amzDate.slice(0, 8)
  const region = 'us-east-1'
  const payloadHash = createHash('sha256').update('').digest('hex')
  const canonical = ['GET', '/', '', `host:${host}`, `x-amz-content-sha256:${payloadHash}`, `x-amz-date:${amzDate}`, '',
    'host;x-amz-content-sha256;x-amz-date', payloadHash].join('\n')
  const scope = `${day}/${region}/s3/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n')
  const hmac = (key, data) => createHmac('sha256', key).update(data).digest()
  const key = ['s3', 'aws4_request'].reduce(hmac, hmac(hmac(`AWS4${secret}`, day), region))
  const signature = createHmac('sha256', key).update(toSign).digest('hex')
  const response = await fetch(`http://${host}/`, {
    signal: AbortSignal.timeout(5000),
    headers: {
      'x-amz-date': amzDate,
      'x-amz-content-sha256': payloadHash,
      authorization: `AWS4-HMAC-SHA256 Credential=${accessKey}/${scope}, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=${signature}`
    }
  })
  await response.arrayBuffer()
  return response.status
}

await main()
