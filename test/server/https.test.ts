import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { request } from 'node:https'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { X509Certificate } from 'node:crypto'
import { loadConfig } from '../../src/config/index.ts'
import { serve, type RunningServer } from '../../src/server/serve.ts'
import { signedPath } from '../../src/signing/index.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'

describe('the api role over a real socket (embedded SQLite)', () => {
  let server: RunningServer
  let dataDir: string
  let port: number
  const printed: string[] = []
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-https-'))
    const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, API_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' })
    server = await serve(config, ['api'], (line) => printed.push(line))
    port = (server.apps.api?.server.address() as AddressInfo).port
  })
  after(async () => {
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('prints the first administrator credentials once and stores them owner-only', () => {
    const saved = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8'))
    assert.ok(printed.some((line) => line.includes(saved.api_key)))
    assert.ok(printed.some((line) => line.includes(saved.secret)))
    assert.equal(statSync(join(dataDir, 'admin-credentials.json')).mode & 0o777, 0o600)
    assert.equal(statSync(join(dataDir, 'tls-key.pem')).mode & 0o777, 0o600)
  })

  it('generates a sha256 self-signed certificate for localhost and 127.0.0.1 and prints its fingerprint', () => {
    const cert = new X509Certificate(readFileSync(join(dataDir, 'tls-cert.pem')))
    assert.match(cert.subjectAltName ?? '', /DNS:localhost/)
    assert.match(cert.subjectAltName ?? '', /IP Address:127\.0\.0\.1/)
    assert.ok(printed.some((line) => line.includes(cert.fingerprint256)))
    const text = execFileSync('openssl', ['x509', '-noout', '-text', '-in', join(dataDir, 'tls-cert.pem')], { encoding: 'utf8' })
    assert.match(text, /sha256WithRSAEncryption/)
  })

  it('answers a signed GET /v2/users over HTTPS, verifying the generated certificate', async () => {
    const saved = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8'))
    const path = signedPath({ apiKey: saved.api_key, secret: saved.secret, method: 'GET', path: '/v2/users' })
    const { status, body } = await new Promise<{ status: number, body: string }>((resolve, reject) => {
      const req = request({ host: 'localhost', port, path, ca: readFileSync(join(dataDir, 'tls-cert.pem')) }, (res) => {
        let data = ''
        res.on('data', (chunk: Buffer) => { data += chunk.toString() })
        res.on('end', () => { resolve({ status: res.statusCode ?? 0, body: data }) })
      })
      req.on('error', reject)
      req.end()
    })
    assert.equal(status, 200)
    assert.equal(JSON.parse(body).items.length, 1)
  })

  it('gives no API answer to plain HTTP on the api port', async () => {
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => { socket.write('GET /v2/users HTTP/1.1\r\nHost: localhost\r\n\r\n') })
      let data = ''
      socket.on('data', (chunk) => { data += chunk.toString('latin1') })
      socket.on('close', () => { resolve(data) })
      socket.on('error', () => { resolve(data) })
      socket.setTimeout(5000, () => { socket.destroy() })
    })
    assert.doesNotMatch(answer, /"items"|"message"|application\/json/)
  })
})
