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
import { runInTerminal, terminalAvailable } from '../support/terminal.ts'
import { Receiver } from './support/receiver.ts'

/**
 * `reelhouse webhooks …` through the real CLI against a real server. `listen`: the events come over the
 * signed event stream and reach a local receiver that verifies each with `standardwebhooks`; no
 * endpoint receives them, so nothing is delivered by the service.
 */
describe('reelhouse webhooks', () => {
  let server: RunningServer | undefined
  let dataDir: string
  let env: Record<string, string>
  let client: Reelhouse
  let receiver: Receiver
  let terminal: boolean
  const listeners: CliProcess[] = []
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-webhooks-cli-'))
    env = { REELHOUSE_DATA_DIR: dataDir, XDG_CONFIG_HOME: join(dataDir, 'config') }
    server = await serve(loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, HOST: '127.0.0.1', API_PORT: '0', LOG_LEVEL: 'silent' }), ['api'], () => {})
    const admin = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8'))
    const port = (server.apps.api?.server.address() as { port: number }).port
    client = new Reelhouse({ baseUrl: `https://127.0.0.1:${port}`, apiKey: admin.api_key, secret: admin.secret, fetch: fetchWithCa({ ca: readFileSync(join(dataDir, 'tls-cert.pem')) }) })
    receiver = await Receiver.start([])
    terminal = await terminalAvailable()
  })
  after(async () => {
    for (const listener of listeners) await listener.stop('SIGKILL')
    await receiver.close()
    await server?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('create prints the secret once; list follows every page; get, test, deliveries and retry; delete asks unless --yes', async (t) => {
    const made: Array<{ id: string, secret: string, url: string }> = []
    for (const n of [1, 2, 3]) {
      const result = await runCli(['webhooks', 'create', '--url', `https://example.com/hooks/${n}`, '--events', 'asset.ready,asset.errored', '--description', `hook ${n}`], env)
      assert.equal(result.status, 0, result.stderr)
      made.push(JSON.parse(result.stdout))
    }
    assert.match(made[0]?.secret ?? '', /^whsec_/)
    const listed = await runCli(['webhooks', 'list', '--page-size', '1'], env)
    assert.equal(listed.status, 0, listed.stderr)
    const lines = listed.stdout.trim().split('\n').map((line) => JSON.parse(line))
    assert.deepEqual(lines.map((hook) => hook.id), made.map((hook) => hook.id), 'three pages of one, in order')
    assert.ok(!listed.stdout.includes('secret'))
    assert.deepEqual(lines[0].events, ['asset.ready', 'asset.errored'])
    const id = made[0]?.id as string

    const shown = await runCli(['webhooks', 'get', id], env)
    assert.equal(JSON.parse(shown.stdout).description, 'hook 1')
    const tested = await runCli(['webhooks', 'test', id], env)
    assert.equal(tested.status, 0, tested.stderr)
    const eventId = JSON.parse(tested.stdout).event_id as string
    assert.match(eventId, /^evt_[0-9a-f]{32}$/)
    await runCli(['webhooks', 'test', id], env)
    const deliveries = await runCli(['webhooks', 'deliveries', id, '--page-size', '1'], env)
    const rows = deliveries.stdout.trim().split('\n').map((line) => JSON.parse(line))
    assert.equal(rows.length, 2, 'both pages')
    assert.equal(rows[1].event_id, eventId, 'newest first')
    assert.deepEqual(rows.map((row) => [row.event_type, row.state]), [['webhook.test', 'pending'], ['webhook.test', 'pending']])
    const limited = await runCli(['webhooks', 'deliveries', id, '--limit', '1'], env)
    assert.equal(limited.stdout.trim().split('\n').length, 1)
    const retried = await runCli(['webhooks', 'retry', id, rows[1].id], env)
    assert.equal(retried.status, 0, retried.stderr)
    assert.equal(JSON.parse(retried.stdout).event_id, eventId)
    const unknown = await runCli(['webhooks', 'retry', id, 'f'.repeat(32)], env)
    assert.equal(unknown.status, 1)
    assert.match(unknown.stderr, new RegExp(`^reelhouse: Delivery f{32} of webhook ${id} does not exist\\. \\(404 webhook_delivery_not_found\\)`))

    if (terminal) {
      const table = await runInTerminal(['webhooks', 'list'], env)
      assert.match(table.stdout, /ID\s+ENABLED\s+EVENTS\s+URL\s+DESCRIPTION/)
      assert.match(table.stdout, /asset\.ready,asset\.errored\s+https:\/\/example\.com\/hooks\/1\s+hook 1/)
      assert.match(table.stdout, /3 webhooks/)
      const deliveryTable = await runInTerminal(['webhooks', 'deliveries', id], env)
      assert.match(deliveryTable.stdout, /webhook\.test\s+pending\s+0/)
      const declined = await runInTerminal(['webhooks', 'delete', id], env, 'n\n')
      assert.match(declined.stdout, new RegExp(`Delete webhook ${id} \\(https://example\\.com/hooks/1\\) and its deliveries\\? \\[y/N\\]`))
      assert.match(declined.stdout, /Not deleted\./)
    } else {
      t.diagnostic('util-linux `script` is not installed: the tables and the terminal question are not tried')
    }
    const unasked = await runCli(['webhooks', 'delete', id], env)
    assert.equal(unasked.status, 2)
    assert.match(unasked.stderr, /not asked, as this is not a terminal; pass --yes/)
    assert.equal((await runCli(['webhooks', 'get', id], env)).status, 0, 'nothing deleted')
    const deleted = await runCli(['webhooks', 'delete', id, '--yes'], env)
    assert.equal(deleted.status, 0, deleted.stderr)
    assert.match(deleted.stderr, new RegExp(`Deleted webhook ${id}\\.`))
    const gone = await runCli(['webhooks', 'get', id], env)
    assert.match(gone.stderr, /\(404 webhook_not_found\)/)

    const completion = await runCli(['completion', 'bash'], env)
    assert.match(completion.stdout, /"webhooks"\) echo list get create delete deliveries retry test listen /)
    assert.match(completion.stdout, /"webhooks listen"\) echo .*--forward-to --forward-secret --events /)
  })

  it('listen forwards each new event, signed with the secret it printed, verified by standardwebhooks; --events filters', async () => {
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

  it('listen signs with --forward-secret, and says when the receiver is down without stopping', async () => {
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

  it('listen refuses a --forward-to that is no URL, and a caller who may not read webhooks', async () => {
    const bad = await runCli(['webhooks', 'listen', '--forward-to', 'localhost:3000'], env)
    assert.equal(bad.status, 2)
    assert.match(bad.stderr, /^reelhouse: --forward-to must be an http:\/\/ or https:\/\/ URL, not "localhost:3000"/)
    const manager = await client.users.create({ name: 'manager', role: 'manager' })
    const refused = await runCli(['webhooks', 'listen', '--forward-to', receiver.url, '--api-key', manager.api_key, '--secret', manager.secret], env)
    assert.equal(refused.status, 1)
    assert.match(refused.stderr, /^reelhouse: Role manager may not read webhooks\. \(403 permission_denied\)/)
  })
})
