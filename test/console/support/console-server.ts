import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { AppContext } from '../../../src/app/context.ts'
import type { UserRole } from '../../../src/auth/roles.ts'
import { loadConfig } from '../../../src/config/index.ts'
import { serve } from '../../../src/server/serve.ts'
import { injectSigned, TEST_MASTER_KEY } from '../../support/app.ts'

/** A key and its secret. */
export interface Credentials { apiKey: string, secret: string }

export interface ConsoleServer {
  /** `https://127.0.0.1:<port>`: the api listener with its first-start self-signed certificate; PUBLIC_API_URL too. */
  baseUrl: string
  ctx: AppContext
  app: FastifyInstance
  /** The first administrator, as the first start wrote it. */
  admin: Credentials
  /** What `serve` printed for the operator. */
  printed: string[]
  /** A user of the administrator's account with this role. */
  user: (role: UserRole) => Promise<Credentials>
  /** A signed request through `app.inject`, as `as` (default the administrator). */
  signed: (method: string, path: string, options?: { body?: string | object, as?: Credentials, params?: Record<string, string>, headers?: Record<string, string> }) => Promise<LightMyRequestResponse>
  close: () => Promise<void>
}

/** A port nothing listens on now, so PUBLIC_API_URL can name the port before the listener opens. */
async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>((resolve) => server.close(() => { resolve() }))
  return port
}

/**
 * `reelhouse serve --role api worker` in this process, on a fresh data directory: the HTTPS api listener
 * with its generated certificate, the index consumer and the media worker, with PUBLIC_API_URL naming
 * the listener itself (chunk and media URLs point back to it).
 */
export async function startConsoleServer (env: Record<string, string> = {}): Promise<ConsoleServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-console-'))
  const port = await freePort()
  const baseUrl = `https://127.0.0.1:${port}`
  const config = loadConfig({
    REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent',
    HOST: '127.0.0.1', API_PORT: String(port), PUBLIC_API_URL: baseUrl, ...env
  })
  const printed: string[] = []
  const server = await serve(config, ['api', 'worker'], (line) => { printed.push(line) }, { media: { pollMs: 50 } })
  const { ctx } = server
  const app = server.apps.api as FastifyInstance
  const saved = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as { api_key: string, secret: string }
  const admin = { apiKey: saved.api_key, secret: saved.secret }
  const signed: ConsoleServer['signed'] = async (method, path, options = {}) =>
    await injectSigned(app, options.as ?? admin, method, path, { ...options, expires: Math.floor(Date.now() / 1000) + 600 })
  return {
    baseUrl,
    ctx,
    app,
    admin,
    printed,
    user: async (role) => {
      const created = await signed('POST', '/v2/users', { body: { name: `${role.replace('_', ' ')} user`, role } })
      if (created.statusCode !== 200) throw new Error(`could not create a ${role} user: ${created.body}`)
      return { apiKey: created.json().api_key as string, secret: created.json().secret as string }
    },
    signed,
    close: async () => {
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** Uploads bytes as a new asset in one chunk through the API and marks it uploaded: its job is queued. */
export async function uploadBytes (server: ConsoleServer, name: string, assetType: string, fileName: string, bytes: Buffer): Promise<string> {
  const created = await server.signed('POST', '/v2/assets', { body: { asset_type: assetType, name, file_name: fileName, file_size: bytes.length } })
  assert.equal(created.statusCode, 200, created.body)
  const id = created.json().embed_code as string
  const [url] = (await server.signed('GET', `/v2/assets/${id}/uploading_urls`)).json() as string[]
  const chunk = new URL(url as string)
  const put = await server.app.inject({ method: 'PUT', url: chunk.pathname + chunk.search, payload: bytes, headers: { 'content-type': 'application/octet-stream' } })
  assert.equal(put.statusCode, 200, put.body)
  assert.equal((await server.signed('PUT', `/v2/assets/${id}/upload_status`, { body: { status: 'uploaded' } })).statusCode, 200)
  return id
}
