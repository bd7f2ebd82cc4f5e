import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'

export interface RawResponse { status: number, headers: Record<string, string | string[] | undefined>, body: string }

/** One HTTP exchange with node:http(s); `ca` trusts a self-signed server certificate. */
export async function send (url: URL, method: string, body: string | undefined, ca?: string | Buffer): Promise<RawResponse> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  return await new Promise((resolve, reject) => {
    const req = request(url, { method, ...(ca !== undefined ? { ca } : {}), headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => { chunks.push(chunk) })
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }) })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}
