import type { ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import type { FastifyReply } from 'fastify'
import type { MediaObjectInfo } from '../store/index.ts'

/** What a file answer says besides its bytes: the headers `found` and the type give it. */
interface FileHead {
  cacheControl: string
  disposition: string | undefined
  contentType: string
}

/**
 * The headers of a described file's 200 — caching, CORS, validators, type and length — in the order
 * the pipeline's answer carries them, built once per description (a kept one lives as long as its read
 * cache entry) and head, so a segment GET formats no date and builds no header object of its own.
 */
const prepared = new WeakMap<MediaObjectInfo, Map<string, ReadonlyArray<[string, string]>>>()

export function fileHeaders (info: MediaObjectInfo, head: FileHead): ReadonlyArray<[string, string]> {
  let heads = prepared.get(info)
  if (heads === undefined) {
    heads = new Map()
    prepared.set(info, heads)
  }
  const key = `${head.cacheControl}\u0000${head.disposition ?? ''}\u0000${head.contentType}`
  let headers = heads.get(key)
  if (headers === undefined) {
    const list: Array<[string, string]> = [
      ['access-control-allow-origin', '*'], ['cache-control', head.cacheControl], ['x-content-type-options', 'nosniff'], ['accept-ranges', 'bytes']
    ]
    if (head.disposition !== undefined) list.push(['content-disposition', head.disposition])
    if (info.etag !== undefined) list.push(['etag', info.etag])
    if (info.lastModified !== undefined) list.push(['last-modified', info.lastModified.toUTCString()])
    list.push(['content-type', head.contentType])
    headers = list
    heads.set(key, headers)
  }
  return headers
}

/**
 * Sends a file's 200 or 206 straight to the socket (docs/media.md, "The request path"): the access
 * decision, the validators' 304, HEAD, 416 and every error were answered before, through the
 * pipeline. The head goes out with the first bytes, so a file that fails before its first read still
 * answers through the pipeline's error handler; after that, as the pipeline does, the connection is
 * closed. The reply's own headers (the request id) come first, as the pipeline writes them.
 */
export async function sendFileBody (reply: FastifyReply, status: 200 | 206, headers: ReadonlyArray<[string, string]>, length: number, contentRange: string | undefined, body: Readable): Promise<void> {
  const res = reply.raw
  if (res.destroyed) return abandon(reply, body)
  const first = await firstChunk(body)
  if (res.destroyed) return abandon(reply, body)
  const out = reply.getHeaders() as Record<string, string | number | string[]>
  for (const [name, value] of headers) out[name] = value
  out['content-length'] = length
  if (contentRange !== undefined) out['content-range'] = contentRange
  reply.hijack()
  res.writeHead(status, out)
  if (first === null) {
    res.end()
    return
  }
  res.write(first)
  pipeBody(reply, res, body)
}

/**
 * The reader left while its file was opened or first read (its response closed, so the close watch of
 * `pipeBody` would never fire): nothing is sent and the file is closed now. Piped into the closed
 * response, it would wait for a drain that never comes and hold its descriptor until garbage collection.
 */
function abandon (reply: FastifyReply, body: Readable): void {
  reply.hijack()
  body.destroy()
}

/** The body's first chunk (null for an empty body); rejects when it fails before one, nothing sent yet. */
async function firstChunk (body: Readable): Promise<Buffer | null> {
  return await new Promise<Buffer | null>((resolve, reject) => {
    const readable = (): void => {
      const chunk = body.read() as Buffer | null
      if (chunk === null && !body.readableEnded) return
      done()
      resolve(chunk)
    }
    const ended = (): void => { done(); resolve(null) }
    const failed = (error: Error): void => { done(); reject(error) }
    const done = (): void => {
      body.off('readable', readable)
      body.off('end', ended)
      body.off('error', failed)
    }
    body.on('readable', readable)
    body.once('end', ended)
    body.once('error', failed)
  })
}

/** The rest of the body, with the pipeline's handling of a failed read and of a reader that left. */
function pipeBody (reply: FastifyReply, res: ServerResponse, body: Readable): void {
  let open = true
  body.once('error', (error: Error) => {
    open = false
    reply.log.warn({ err: error }, 'response terminated with an error with headers already sent')
    res.destroy()
  })
  body.once('end', () => { open = false })
  res.once('close', () => {
    if (!open) return
    if (!res.writableFinished) reply.log.info({ res: reply }, 'stream closed prematurely')
    body.destroy()
  })
  body.pipe(res)
}
