// The baseline: a bare Fastify handler answering fixed JSON, on the same TLS setup (or plain HTTP)
// and the same machine as the server it is compared with. With BARE_HEADERS it also sends the
// headers Reelhouse's answer carries (a fresh request id each time), so that the cost of the
// headers the interface requires is measured apart from the cost of Reelhouse's own code.
// Prints one JSON line with its port.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import Fastify from 'fastify'

const body = readFileSync(process.env.BARE_BODY_FILE as string, 'utf8')
const https = process.env.BARE_TLS_DIR === undefined
  ? undefined
  : { key: readFileSync(`${process.env.BARE_TLS_DIR}/tls-key.pem`), cert: readFileSync(`${process.env.BARE_TLS_DIR}/tls-cert.pem`) }
const headers = process.env.BARE_HEADERS === undefined ? undefined : JSON.parse(process.env.BARE_HEADERS) as Record<string, string>
const app = Fastify({ logger: false, ...(https === undefined ? {} : { https }) })
app.get('/*', async (_request, reply) => {
  if (headers !== undefined) reply.headers({ ...headers, 'x-request-id': randomUUID() })
  return await reply.type('application/json; charset=utf-8').send(body)
})
await app.listen({ host: '127.0.0.1', port: 0 })
console.log(JSON.stringify({ ready: true, port: (app.server.address() as AddressInfo).port }))
process.on('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
