// The baseline of the upload scenario: a bare Fastify handler, on the same TLS setup and machine as
// Reelhouse, that writes each PUT body at its offset of one file and answers once the bytes are on disk
// — what a chunk PUT must do at the least, without the upload protocol (no chunk URL to verify, no
// database, no completion). `PUT /<offset>` with the body; `GET /done` answers the file's size.
// Prints one JSON line with its port.
import { constants, readFileSync } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { pipeline } from 'node:stream/promises'
import Fastify from 'fastify'

const target = process.env.BARE_UPLOAD_FILE as string
const https = { key: readFileSync(`${process.env.BARE_TLS_DIR as string}/tls-key.pem`), cert: readFileSync(`${process.env.BARE_TLS_DIR as string}/tls-cert.pem`) }
const app = Fastify({ logger: false, https, bodyLimit: 1024 * 1024 * 1024 })
app.removeAllContentTypeParsers()
app.addContentTypeParser('*', (_request, _payload, done) => { done(null, undefined) })
app.put<{ Params: { offset: string } }>('/:offset', async (request) => {
  const handle = await open(target, constants.O_WRONLY | constants.O_CREAT, 0o600)
  await pipeline(request.raw, handle.createWriteStream({ start: Number(request.params.offset), flush: true, highWaterMark: 1024 * 1024 }))
  return { ok: true }
})
app.get('/done', async () => ({ size: (await stat(target)).size }))
await app.listen({ host: '127.0.0.1', port: 0 })
console.log(JSON.stringify({ ready: true, port: (app.server.address() as AddressInfo).port }))
process.on('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
