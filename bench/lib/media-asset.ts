import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { call, type Target } from './client.ts'
import { startChild, type Child } from './process.ts'
import { benchEnv, type ReelhouseInfo } from './servers.ts'

/** A processed asset on a data directory that outlives the process that made it. */
export interface PreparedMedia {
  dataDir: string
  /** Paths on either listener: the master, one rendition's playlist and one of its segments, and the original. */
  paths: { master: string, playlist: string, segment: string, original: string }
  /** The files those paths read, in the store's tree (for the bare servers). */
  files: { master: string, playlist: string, segment: string, original: string }
  /** Store keys under the data directory's media root (relative to `objects/`), for nginx/bare URLs. */
  objectsRoot: string
  segmentBytes: number
}

/** Starts Reelhouse (`roles`) on an existing data directory; the directory stays when it stops. */
export async function startOnDataDir (dataDir: string, roles: string, env: Record<string, string> = {}): Promise<{ child: Child<ReelhouseInfo>, api: Target, cdn: Target }> {
  const child = await startChild<ReelhouseInfo>('bench/servers/reelhouse.ts', benchEnv(dataDir, { BENCH_ROLES: roles, ...env }))
  const { apiKey, secret } = child.info
  return {
    child,
    api: { base: `https://127.0.0.1:${child.info.api ?? 0}`, apiKey, secret },
    cdn: { base: `http://127.0.0.1:${child.info.cdn ?? 0}`, apiKey, secret }
  }
}

/**
 * Makes a `seconds` long 1280×720 clip with ffmpeg, uploads it to a Reelhouse process with a worker and
 * waits until every rendition is made; the data directory (SQLite and the file store, or S3 when
 * `env` names MEDIA_STORE_URL) is then reused by every round.
 */
export async function prepareMedia (seconds: number, env: Record<string, string> = {}): Promise<PreparedMedia> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-bench-media-'))
  const clip = join(dataDir, 'clip.mp4')
  execFileSync('ffmpeg', [
    '-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '96k', clip
  ])
  const server = await startOnDataDir(dataDir, 'api,worker', env)
  try {
    const api = server.api
    const bytes = readFileSync(clip)
    const created = await call(api, 'POST', '/v2/assets', { asset_type: 'video', name: 'Bench', file_name: 'clip.mp4', file_size: String(bytes.length), chunk_size: String(bytes.length) })
    if (created.status !== 200) throw new Error(`asset: ${created.status} ${JSON.stringify(created.json)}`)
    const id = created.json.embed_code as string
    const urls = await call(api, 'GET', `/v2/assets/${id}/uploading_urls`)
    const chunk = new URL(urls.json[0] as string)
    await put(`${api.base}${chunk.pathname}${chunk.search}`, bytes)
    const done = await call(api, 'PUT', `/v2/assets/${id}/upload_status`, { status: 'uploaded' })
    if (done.status !== 200) throw new Error(`upload_status: ${done.status}`)
    let asset: any
    for (;;) {
      asset = (await call(api, 'GET', `/v2/assets/${id}`)).json
      if (asset.status === 'error') throw new Error(String(asset.processing_error))
      if (asset.status === 'live' && asset.processing_progress === 100) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const master = new URL(asset.stream_urls.iphone as string).pathname
    const original = new URL(asset.stream_urls.source_file as string).pathname
    const streams = (await call(api, 'GET', `/v2/assets/${id}/streams`)).json
    const objectsRoot = join(dataDir, 'media', 'objects')
    if (!existsSync(objectsRoot)) {
      // An S3 store: no files here, so the paths only (the first ready rendition's first segment).
      const playlist = new URL((streams.items as Array<{ state: string, url: string }>).find((s) => s.state === 'ready')?.url as string).pathname
      const segment = playlist.replace('index.m3u8', 'segment-00000.ts')
      return { dataDir, paths: { master, playlist, segment, original }, files: { master: '', playlist: '', segment: '', original: '' }, objectsRoot, segmentBytes: 0 }
    }
    const everything = readdirSync(objectsRoot, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
    // The rendition whose middle segment is nearest the 704 KB segment the issue measured (a full one: the last may be short).
    const ready = (streams.items as Array<{ state: string, url: string }>).filter((s) => s.state === 'ready').map((stream) => {
      const playlist = new URL(stream.url).pathname
      const [, , , version, rendition] = playlist.split('/')
      const renditionFolder = everything.find((file) => file.endsWith(`/${version as string}/${rendition as string}/index.m3u8`))?.replace(/\/index\.m3u8$/, '') ?? ''
      const segments = everything.filter((file) => file.startsWith(`${renditionFolder}/segment-`)).sort()
      const segment = segments[Math.floor((segments.length - 1) / 2)] as string
      return { playlist, renditionFolder, segment, size: statSync(segment).size }
    }).sort((a, b) => Math.abs(a.size - 704_000) - Math.abs(b.size - 704_000))
    const { playlist, renditionFolder, segment } = ready[0] as typeof ready[number]
    const files = {
      master: join(renditionFolder, '..', 'master.m3u8'),
      playlist: join(renditionFolder, 'index.m3u8'),
      segment,
      original: everything.find((file) => file.includes(`/assets/${id}/originals/`)) ?? ''
    }
    // The master is rendered from the database on request: the bare servers serve the text it answered.
    writeFileSync(files.master, await getText(`${api.base}${master}`))
    return {
      dataDir,
      paths: { master, playlist, segment: playlist.replace('index.m3u8', segment.slice(segment.lastIndexOf('/') + 1)), original },
      files,
      objectsRoot,
      segmentBytes: statSync(segment).size
    }
  } finally {
    await server.child.stop()
  }
}

async function getText (url: string): Promise<string> {
  return await new Promise<string>((resolve, reject) => {
    request(url, { rejectUnauthorized: false, headers: { 'x-forwarded-proto': 'https' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => { res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`${url}: ${String(res.statusCode)}`)) })
      res.on('error', reject)
    }).on('error', reject).end()
  })
}

async function put (url: string, body: Buffer): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const req = request(url, { method: 'PUT', rejectUnauthorized: false, headers: { 'content-length': String(body.length) } }, (res) => {
      res.resume()
      res.on('end', () => { (res.statusCode ?? 0) < 300 ? resolve() : reject(new Error(`chunk PUT: ${String(res.statusCode)}`)) })
    })
    req.on('error', reject)
    req.end(body)
  })
}
