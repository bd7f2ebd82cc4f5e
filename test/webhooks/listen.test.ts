import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Reelhouse } from 'reelhouse/client'
import { fetchWithCa } from 'reelhouse/client/node'
import { loadConfig } from '../../src/config/index.ts'
import { serve, type RunningServer } from '../../src/server/serve.ts'
import { TEST_MASTER_KEY } from '../support/app.ts'
import { runCli, startCli, type CliProcess } from '../support/cli.ts'
import { Receiver } from './support/receiver.ts'

/**
 * `reelhouse webhooks listen` through the real CLI against a real server: the events come over the
 * signed event stream and reach a local receiver that verifies each with `standardwebhooks`. No
 * endpoint is registered: nothing is delivered by the service.
 */
describe('reelhouse webhooks listen --forward-to', () => {
  let server: RunningServer | undefined
  let dataDir: string
  let env: Record<string, string>
  let client: Reelhouse
  let receiver: Receiver
  const listeners: CliProcess[] = []
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-webhooks-listen-'))
    env = { REELHOUSE_DATA_DIR: dataDir, XDG_CONFIG_HOME: join(dataDir, 'config') }
    server = await serve(loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', LOG_LEVEL: 'silent' }), ['api'], () => {})
    const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8'))
    const port = (server.apps.api?.server.address() as { port: number }).port
    client = new Reelhouse({ baseUrl: `https://127.0.0.1:${port}`, apiKey: admin.api_key, secret: admin.secret, fetch: fetchWithCa({ ca: readFileSync(join(dataDir, 'tls-cert.pem')) }) })
    receiver = await Receiver.start([])
  })
  after(async () => {
    for (const listener of listeners) await listener.stop('SIGKILL')
    await receiver.close()
    await server?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('forwards each new event, signed with the secret it printed, verified by standardwebhooks; --events filters', async () => {
    // An event from before the listener started is not sent: the stream starts with what happens next.
    const earlier = await client.assets.create({ asset_type: 'channel', name: 'before listening' })
    const listener = startCli(['webhooks', 'listen', '--forward-to', receiver.url, '--events', 'asset.created,asset.deleted'], env)
    listeners.push(listener)
    const ready = await listener.waitForStderr(/^Ready\. /)
    const secret = /signed with (whsec_\S+?)[ .]/.exec(ready)?.[1]
    assert.ok(secret !== undefined, ready)
    receiver.secrets = [secret]

    const created = await client.assets.create({ asset_type: 'channel', name: 'while listening' })
    await client.assets.update(created.embed_code, { name: 'renamed' })
    await client.assets.delete(created.embed_code)
    await receiver.until(() => receiver.received.length >= 2)
    assert.deepEqual(receiver.rejected, [])
    const payloads = receiver.received.map((d) => JSON.parse(d.body))
    assert.deepEqual(payloads.map((p) => p.type), ['asset.created', 'asset.deleted'], 'asset.updated filtered out')
    assert.deepEqual(payloads[0].data, created)
    assert.equal(payloads[1].data.name, 'renamed')
    assert.ok(!payloads.some((p) => p.data.embed_code === earlier.embed_code))
    for (const d of receiver.received) assert.equal(JSON.parse(d.body).id, d.id)
    // Piped, each forward is a JSON line with the receiver's answer.
    const lines = await Promise.all([0, 1].map(async (n) => JSON.parse(await listener.waitFor(new RegExp(`"event_id":"${receiver.received[n]?.id ?? ''}"`)))))
    assert.deepEqual(lines.map((line) => [line.type, line.status]), [['asset.created', 204], ['asset.deleted', 204]])
  })

  it('signs with --forward-secret, and says when the receiver is down without stopping', async () => {
    const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64')
    const down = await Receiver.start([])
    const downUrl = down.url
    await down.close()
    const listener = startCli(['webhooks', 'listen', '--forward-to', downUrl, '--forward-secret', secret, '--json'], env)
    listeners.push(listener)
    assert.match(await listener.waitForStderr(/^Ready\. /), new RegExp(`signed with ${secret.replace(/[+/]/g, '\\$&')}\\.`))
    const first = await client.assets.create({ asset_type: 'channel', name: 'nobody there' })
    const refused = JSON.parse(await listener.waitFor(/"type":"asset.created"/))
    assert.equal(refused.status, null)
    assert.equal(refused.error, 'the connection was refused')
    assert.equal(listener.child.exitCode, null, 'still listening')
    assert.ok(first.embed_code !== '')
  })

  it('refuses a --forward-to that is no URL, and a caller who may not read webhooks', async () => {
    const bad = await runCli(['webhooks', 'listen', '--forward-to', 'localhost:3000'], env)
    assert.equal(bad.status, 2)
    assert.match(bad.stderr, /^reelhouse: --forward-to must be an http:\/\/ or https:\/\/ URL, not "localhost:3000"/)
    const manager = await client.users.create({ name: 'manager', role: 'manager' })
    const refused = await runCli(['webhooks', 'listen', '--forward-to', receiver.url, '--api-key', manager.api_key, '--secret', manager.secret], env)
    assert.equal(refused.status, 1)
    assert.match(refused.stderr, /^reelhouse: Role manager may not read webhooks\. \(403 permission_denied\)/)
  })
})
