// The baseline of the media scenario: a bare Node static file server (no framework), one HTTPS listener
// with Reelhouse's certificate and one plain HTTP listener, serving files under BARE_STATIC_ROOT by
// their path: `stat` + `createReadStream` with 1 MiB reads piped to the response, one byte range when
// asked. What a media GET costs at the least in Node. Prints one JSON line with its ports.
import { createReadStream, readFileSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttps } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join, normalize } from 'node:path'

const root = process.env.BARE_STATIC_ROOT as string
const tls = { key: readFileSync(`${process.env.BARE_TLS_DIR as string}/tls-key.pem`), cert: readFileSync(`${process.env.BARE_TLS_DIR as string}/tls-cert.pem`) }

function serveFile (request: IncomingMessage, response: ServerResponse): void {
  const file = join(root, normalize(decodeURIComponent((request.url ?? '/').split('?', 1)[0] as string)))
  stat(file).then((info) => {
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '')
    const start = range === null ? 0 : Number(range[1])
    const end = range === null || range[2] === '' ? info.size - 1 : Math.min(Number(range[2]), info.size - 1)
    const headers: Record<string, string> = { 'content-type': 'video/mp2t', 'content-length': String(end - start + 1), 'accept-ranges': 'bytes' }
    if (range !== null) headers['content-range'] = `bytes ${start}-${end}/${info.size}`
    response.writeHead(range === null ? 200 : 206, headers)
    createReadStream(file, { start, end, highWaterMark: 1024 * 1024 }).pipe(response)
  }, () => {
    response.writeHead(404).end()
  })
}

const https = createHttps(tls, serveFile)
const http = createHttp(serveFile)
await Promise.all([https, http].map(async (server) => { await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)) }))
console.log(JSON.stringify({ ready: true, https: (https.address() as AddressInfo).port, http: (http.address() as AddressInfo).port }))
process.on('SIGTERM', () => { process.exit(0) })
