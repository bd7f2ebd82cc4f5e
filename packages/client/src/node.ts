/**
 * `@reelhouse/client/node`: what only Node can do. Node's own `fetch` takes no CA certificate, and a
 * fresh Reelhouse installation serves a self-signed one; `fetchWithCa` is a `fetch` over `node:https`
 * that trusts the certificates you give it (and the usual ones when you give none). The other way is
 * to start Node with `NODE_EXTRA_CA_CERTS=<file>` and keep the global `fetch` (docs/client.md).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'

export interface FetchWithCaOptions {
  /** PEM certificate(s) to trust, e.g. the `tls-cert.pem` of the server's data directory. */
  ca?: string | Buffer | Array<string | Buffer>
}

/**
 * A `fetch` for `new Reelhouse({ fetch })` that trusts `ca` (HTTPS) and speaks plain HTTP too.
 * @example
 * import { readFileSync } from 'node:fs'
 * import { fetchWithCa } from '@reelhouse/client/node'
 * const client = new Reelhouse({ baseUrl, apiKey, secret, fetch: fetchWithCa({ ca: readFileSync('data/tls-cert.pem') }) })
 */
export function fetchWithCa (options: FetchWithCaOptions = {}): (url: string, init?: RequestInit) => Promise<Response> {
  return async (url, init = {}) => {
    const target = new URL(url)
    // A Blob (an upload's chunk: a slice of a file) streams from the file; other bodies are read first.
    const blob = init.body instanceof Blob ? init.body : undefined
    const body = blob === undefined ? await bodyBytes(init.body) : undefined
    const headers = new Headers(init.headers)
    if (blob !== undefined || body !== undefined) headers.set('content-length', String(blob?.size ?? body?.length))
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    return await new Promise<Response>((resolve, reject) => {
      const request = send(target, {
        method: init.method ?? 'GET',
        headers: Object.fromEntries(headers),
        ...(target.protocol === 'https:' && options.ca !== undefined ? { ca: options.ca } : {}),
        signal: init.signal ?? undefined
      }, (response: IncomingMessage) => { resolve(toResponse(response)) })
      request.on('error', reject)
      if (blob === undefined) request.end(body)
      else pipeline(Readable.fromWeb(blob.stream() as NodeReadableStream), request).catch(reject)
    })
  }
}

async function bodyBytes (body: RequestInit['body']): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined
  if (typeof body === 'string') return Buffer.from(body, 'utf8')
  return Buffer.from(await new Response(body).arrayBuffer())
}

function toResponse (message: IncomingMessage): Response {
  const headers = new Headers()
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  }
  const status = message.statusCode ?? 0
  const empty = status === 204 || status === 304
  if (empty) message.resume()
  return new Response(empty ? null : Readable.toWeb(message) as ReadableStream, { status, statusText: message.statusMessage, headers })
}
