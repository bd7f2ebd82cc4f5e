// The whole service over real sockets for the processing tests: api (behind a "TLS proxy": plain HTTP
// with X-Forwarded-Proto), cdn and worker roles via `serve`, on a fresh data directory; uploads go
// through the HTTP upload protocol, chunks in parallel, as real clients send them.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { request } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../../src/config/index.ts'
import type { ProcessRole } from '../../../src/config/index.ts'
import { serve, type RunningServer } from '../../../src/server/serve.ts'
import { signedPath } from '../../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../../support/app.ts'

export const PUBLIC_API_URL = 'https://media.reelhouse.test'

export interface Stack {
  server: RunningServer
  dataDir: string
  env: Record<string, string>
  api: string
  cdn: string
  admin: { api_key: string, secret: string }
  /** A request to the api listener: through the imitated TLS proxy, or over its own TLS when TRUST_PROXY=false. */
  send: (path: string, init?: { method?: string, body?: Buffer<ArrayBuffer> | string, headers?: Record<string, string> }) => Promise<{ status: number, text: string }>
  /** A signed request to the api listener; answers status and parsed JSON. */
  call: (method: string, path: string, body?: object) => Promise<{ status: number, json: any }>
  close: () => Promise<void>
}

export function stackEnv (dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    REELHOUSE_DATA_DIR: dataDir,
    REELHOUSE_MASTER_KEY: TEST_MASTER_KEY,
    HOST: '127.0.0.1',
    API_PORT: '0',
    CDN_PORT: '0',
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'silent',
    PUBLIC_API_URL,
    CREDITS_ENABLED: 'false',
    ...extra
  }
}

/** Starts the given roles in this process on a fresh data directory (`dataDir` to share one). */
export async function startStack (roles: ProcessRole[], extra: Record<string, string> = {}, dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-e2e-'))): Promise<Stack> {
  const env = stackEnv(dataDir, extra)
  const server = await serve(loadConfig(env), roles, () => {}, { media: { pollMs: 50 } })
  const address = (role: 'api' | 'cdn'): string => `http://127.0.0.1:${(server.apps[role]?.server.address() as AddressInfo).port}`
  const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as Stack['admin']
  // No trusted proxy: the api listener is the service's own HTTPS, with its self-signed certificate.
  const ownTls = env.TRUST_PROXY === 'false'
  const api = ownTls ? address('api').replace('http:', 'https:') : address('api')
  const ca = ownTls ? readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8') : ''
  const send: Stack['send'] = async (path, init = {}) => {
    if (!ownTls) {
      const res = await fetch(api + path, { method: init.method, body: init.body, headers: { 'x-forwarded-proto': 'https', ...init.headers } })
      return { status: res.status, text: await res.text() }
    }
    return await new Promise((resolve, reject) => {
      const req = request(api + path, { method: init.method ?? 'GET', ca, headers: init.headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => { resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }) })
      })
      req.on('error', reject)
      req.end(init.body)
    })
  }
  const call: Stack['call'] = async (method, path, body) => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const url = signedPath({ apiKey: admin.api_key, secret: admin.secret, method, path, body: text })
    const res = await send(url, { method, body: text, headers: text === undefined ? {} : { 'content-type': 'application/json' } })
    return { status: res.status, json: res.text === '' ? undefined : JSON.parse(res.text) }
  }
  return {
    server,
    dataDir,
    env,
    api,
    send,
    cdn: roles.includes('cdn') ? address('cdn') : '',
    admin,
    call,
    close: async () => {
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** The path and query of an absolute URL the service answered with (its origin is PUBLIC_API_URL). */
export function pathOf (url: string): string {
  assert.ok(url.startsWith(`${PUBLIC_API_URL}/`), `${url} starts with PUBLIC_API_URL`)
  const parsed = new URL(url)
  return parsed.pathname + parsed.search
}

/**
 * Creates an asset for `file` and uploads it over HTTP in chunks, all PUT at once, then marks it
 * uploaded; answers the embed code. The asset is then `processing`.
 */
export async function upload (stack: Stack, file: string, options: { assetType?: string, chunkSize?: number, name?: string, mp4Support?: string } = {}): Promise<string> {
  const bytes = await readFile(file)
  const chunkSize = options.chunkSize ?? Math.max(64 * 1024, Math.ceil(bytes.length / 4))
  const created = await stack.call('POST', '/v2/assets', {
    asset_type: options.assetType ?? 'video', name: options.name ?? 'Clip', file_name: file.split('/').pop(), file_size: String(bytes.length), chunk_size: String(chunkSize),
    ...(options.mp4Support === undefined ? {} : { mp4_support: options.mp4Support })
  })
  assert.equal(created.status, 200, JSON.stringify(created.json))
  const id = created.json.embed_code as string
  const urls = await stack.call('GET', `/v2/assets/${id}/uploading_urls`)
  assert.equal(urls.status, 200, JSON.stringify(urls.json))
  await Promise.all((urls.json as string[]).map(async (url, index) => {
    const res = await stack.send(pathOf(url), { method: 'PUT', body: bytes.subarray(index * chunkSize, (index + 1) * chunkSize) })
    assert.ok(res.status >= 200 && res.status < 300, `chunk ${index}: ${res.status} ${res.text}`)
  }))
  const done = await stack.call('PUT', `/v2/assets/${id}/upload_status`, { status: 'uploaded' })
  assert.equal(done.status, 200, JSON.stringify(done.json))
  return id
}

/** Uploads `file` as the replacement of a processed asset's media, in parallel chunks; the asset stays as it is meanwhile. */
export async function replace (stack: Stack, id: string, file: string): Promise<void> {
  const bytes = await readFile(file)
  const chunkSize = Math.max(64 * 1024, Math.ceil(bytes.length / 3))
  const started = await stack.call('POST', `/v2/assets/${id}/replacement`, { file_name: file.split('/').pop(), file_size: String(bytes.length), chunk_size: String(chunkSize) })
  assert.equal(started.status, 200, JSON.stringify(started.json))
  const urls = await stack.call('GET', `/v2/assets/${id}/replacement/uploading_urls`)
  assert.equal(urls.status, 200, JSON.stringify(urls.json))
  await Promise.all((urls.json as string[]).map(async (url, index) => {
    const res = await stack.send(pathOf(url), { method: 'PUT', body: bytes.subarray(index * chunkSize, (index + 1) * chunkSize) })
    assert.ok(res.status >= 200 && res.status < 300, `chunk ${index}: ${res.status} ${res.text}`)
  }))
  const done = await stack.call('PUT', `/v2/assets/${id}/replacement/upload_status`, { status: 'uploaded' })
  assert.equal(done.status, 200, JSON.stringify(done.json))
}

/**
 * Reads the asset until processing has finished (every rendition made, or `error`). A deadline only
 * keeps a broken run from hanging the suite; nothing is asserted about time.
 */
export async function finished (stack: Stack, id: string, until: (asset: any) => boolean = () => true, deadlineMs = 300_000): Promise<any> {
  const end = Date.now() + deadlineMs
  for (;;) {
    const res = await stack.call('GET', `/v2/assets/${id}`)
    assert.equal(res.status, 200)
    const asset = res.json
    if (asset.status === 'error' || (['live', 'paused'].includes(asset.status) && asset.processing_progress === 100 && until(asset))) return asset
    if (Date.now() > end) assert.fail(`asset ${id} still ${asset.status} at ${asset.processing_progress} %`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Fetches a media URL from the cdn listener (plain HTTP), as a player would. */
export async function fromCdn (stack: Stack, url: string, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(stack.cdn + pathOf(url), { headers })
}
