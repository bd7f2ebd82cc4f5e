import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eventually } from '../webhooks/support/delivery.ts'
import { Receiver } from '../webhooks/support/receiver.ts'
import { launchBrowser, NO_CHROMIUM, type Browser } from './support/browser.ts'
import { startConsoleServer, type ConsoleServer, type Credentials } from './support/console-server.ts'

const WAIT = { timeout: 30_000 }

const link = (server: ConsoleServer, caller: Credentials): string =>
  `${server.baseUrl}/console#${new URLSearchParams({ api_key: caller.apiKey, secret: caller.secret }).toString()}`

// The console's webhooks view in real Chromium: each endpoint with its state and its last deliveries,
// delivered for real by the worker role to a loopback receiver that verifies them.
describe('the console\'s webhooks view', { skip: NO_CHROMIUM, timeout: 120_000 }, () => {
  let server: ConsoleServer
  let browser: Browser
  let receiver: Receiver
  let live: { id: string, url: string }
  let paused: { id: string, url: string }
  before(async () => {
    server = await startConsoleServer({ WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_ALLOW_HTTP: 'true' })
    receiver = await Receiver.start([])
    const created = await server.signed('POST', '/v2/webhooks', { body: { url: receiver.url, description: 'Local receiver' } })
    assert.equal(created.statusCode, 200, created.body)
    live = created.json()
    receiver.secrets = [created.json().secret]
    paused = (await server.signed('POST', '/v2/webhooks', { body: { url: `${receiver.url}/paused`, events: ['asset.ready'] } })).json()
    await server.signed('PATCH', `/v2/webhooks/${paused.id}`, { body: { enabled: false } })
    await server.signed('POST', '/v2/assets', { body: { asset_type: 'channel', name: 'Shown in the console' } })
    await server.signed('POST', `/v2/webhooks/${live.id}/test`)
    await receiver.until(() => receiver.received.length >= 2)
    browser = await launchBrowser()
  })
  after(async () => {
    await browser?.close()
    await receiver?.close()
    await server?.close()
  })

  it('lists every endpoint with its state and its last deliveries, for administrators only', async () => {
    // The deliveries are recorded once the receiver's answers are settled.
    await eventually(async () => (await server.signed('GET', `/v2/webhooks/${live.id}/deliveries`)).json().items.every((d: { state: string }) => d.state === 'succeeded'))
    const page = await browser.tab()
    await page.goto(link(server, server.admin))
    await page.getByRole('link', { name: 'Webhooks' }).click()
    await page.locator('.webhook-card').nth(1).waitFor(WAIT)
    assert.equal(await page.title(), 'Webhooks · Reelhouse console')
    const card = page.locator(`[data-webhook="${live.id}"]`)
    assert.equal(await card.locator('h2').textContent(), receiver.url)
    assert.match(await card.textContent() ?? '', /enabled.*every event · Local receiver/)
    const rows = await card.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))
    assert.deepEqual(rows.map((cells) => [cells[1], cells[2], cells[3]]).sort(), [['asset.created', 'succeeded', '1'], ['webhook.test', 'succeeded', '1']])
    for (const cells of rows) assert.match(cells[4] ?? '', /^204 in \d+ ms$/)
    const other = page.locator(`[data-webhook="${paused.id}"]`)
    assert.match(await other.textContent() ?? '', /disabled.*asset\.ready.*No deliveries yet\./)
    assert.deepEqual(browser.seen, { violations: [], errors: [] })

    const manager = await server.user('manager')
    const managerPage = await browser.tab()
    await managerPage.goto(link(server, manager))
    await managerPage.locator('#nav a').first().waitFor(WAIT)
    assert.equal(await managerPage.getByRole('link', { name: 'Webhooks' }).count(), 0)
  })
})
