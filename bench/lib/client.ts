import { request as httpsRequest } from 'node:https'
import { request as httpRequest } from 'node:http'
import { signedPath } from '../../src/signing/index.ts'

export interface Target { base: string, apiKey: string, secret: string }

/** A signed request for seeding and checks (not for load): resolves with status, parsed JSON and headers. `signed`: an already signed path to send instead. */
export async function call (target: Target, method: string, path: string, body?: unknown, signed?: string): Promise<{ status: number, json: any, headers: Record<string, string> }> {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  const url = new URL(target.base + (signed ?? signedPath({ apiKey: target.apiKey, secret: target.secret, method, path, body: payload })))
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return await new Promise((resolve, reject) => {
    const req = send(url, { method, rejectUnauthorized: false }, (res) => {
      let data = ''
      res.on('data', (chunk: Buffer) => { data += chunk.toString() })
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, json: data === '' ? undefined : JSON.parse(data), headers: res.headers as Record<string, string> }) })
    })
    req.on('error', reject)
    req.end(payload)
  })
}

/** A signed path with a fixed far-future `expires`, so every request of a run is the same URL. */
export function fixedSignedPath (target: Target, method: string, path: string, body?: string): string {
  return signedPath({ apiKey: target.apiKey, secret: target.secret, method, path, body, expires: 4_102_444_800 })
}

/** Creates the player the GET scenarios read; resolves with its path. */
export async function createBenchPlayer (target: Target): Promise<string> {
  const created = await call(target, 'POST', '/v2/players', { name: 'Bench player', provider_homepage_url: 'https://example.com/' })
  if (created.status !== 200) throw new Error(`could not create the player: ${created.status} ${JSON.stringify(created.json)}`)
  return `/v2/players/${created.json.id as string}`
}
