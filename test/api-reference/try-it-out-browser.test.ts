import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { AddressInfo } from 'node:net'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { buildTestApp, type TestApp } from '../support/app.ts'

// The API reference in a real browser: Debian's chromium driven by playwright-core (no browser download).
// /docs renders under its Content-Security-Policy, and "Try it out" signs requests in the page with a key
// and secret entered once. Screenshots go to SCREENSHOTS_DIR, by default a folder under the system's
// temporary directory named below; the test prints where.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const SCREENSHOTS = join(process.env.SCREENSHOTS_DIR ?? join(tmpdir(), 'reelhouse-screenshots'), 'api-reference')
/** The flags that run Debian's chromium headless in a container, without reaching out to the network. */
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const WAIT = { timeout: 30_000 }

interface Seen {
  violations: string[]
  errors: string[]
  requests: string[]
}

/** The operation's block in Swagger UI (ids are `operations-<tag>-<operationId>`). */
const operation = (tag: string, id: string): string => `#operations-${tag.replace(/ /g, '_')}-${id}`

async function execute (page: Page, block: string, body?: string): Promise<string> {
  await page.click(`${block} .opblock-summary`)
  await page.click(`${block} .try-out__btn`)
  if (body !== undefined) await page.fill(`${block} textarea.body-param__text`, body)
  await page.click(`${block} .execute`)
  const status = page.locator(`${block} .live-responses-table tbody .response-col_status`).first()
  await status.waitFor(WAIT)
  return (await status.textContent() ?? '').trim()
}

describe('the API reference in a browser', { skip: existsSync(CHROMIUM) ? false : `needs chromium at ${CHROMIUM} (Debian package chromium)`, timeout: 180_000 }, () => {
  let t: TestApp
  let base: string
  let profile: string
  let browser: BrowserContext
  let page: Page
  const seen: Seen = { violations: [], errors: [], requests: [] }

  before(async () => {
    t = await buildTestApp('sqlite')
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    mkdirSync(SCREENSHOTS, { recursive: true })
    profile = mkdtempSync(join(tmpdir(), 'reelhouse-chromium-'))
    browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS })
    page = browser.pages()[0] ?? await browser.newPage()
    // Injected by the browser's debugging protocol, so the page's own policy does not apply to it.
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`csp-violation ${event.violatedDirective} ${event.blockedURI} ${event.sample}`)
      })
    })
    page.on('console', (message) => {
      if (message.text().startsWith('csp-violation')) seen.violations.push(message.text())
      else if (message.type() === 'error') seen.errors.push(message.text())
    })
    page.on('pageerror', (error) => { seen.errors.push(error.message) })
    page.on('request', (request) => { if (new URL(request.url()).pathname.startsWith('/v2/')) seen.requests.push(request.url()) })
  })
  after(async () => {
    await browser?.close()
    rmSync(profile, { recursive: true, force: true })
    await t?.close()
  })

  it('renders /docs: the overview, every operation and the Signing panel, with no policy violation or script error', async (test) => {
    test.diagnostic(`screenshots in ${SCREENSHOTS}`)
    await page.goto(`${base}/docs`)
    await page.locator('.opblock').first().waitFor(WAIT)
    await page.screenshot({ path: join(SCREENSHOTS, 'docs.png') })
    assert.equal(await page.title(), 'Reelhouse API reference')
    assert.match(await page.locator('.information-container').textContent() ?? '', /Signing.*Try it out.*Credits/s)
    assert.ok(await page.locator('.opblock').count() >= 70)
    assert.ok(await page.locator(operation('labels', 'listLabels')).isVisible())
    assert.match(await page.locator('#reelhouse-signing-state').textContent() ?? '', /Enter an API key/)
    assert.deepEqual(seen.violations, [])
    assert.deepEqual(seen.errors, [])
  })

  it('signs "Try it out" with the key and secret entered once: GET /v2/labels answers 200', async () => {
    const created = await t.signed('POST', '/v2/labels', { body: { name: 'Made by the test' } })
    assert.equal(created.statusCode, 200, created.body)
    await page.fill('#reelhouse-api-key', t.admin.apiKey)
    await page.fill('#reelhouse-secret', t.admin.secret)
    await page.click('#reelhouse-sign')
    assert.match(await page.locator('#reelhouse-signing-state').textContent() ?? '', new RegExp(`signed as ${t.admin.apiKey.replace('.', '\\.')}`))
    assert.equal(await page.inputValue('#reelhouse-secret'), '', 'the secret leaves the field once taken')

    const block = operation('labels', 'listLabels')
    const status = await execute(page, block)
    await page.locator(block).screenshot({ path: join(SCREENSHOTS, 'try-it-out-list-labels.png') })
    assert.equal(status, '200')
    assert.match(await page.locator(`${block} .live-responses-table tbody .response-col_description`).first().textContent() ?? '', /Made by the test/)
    const sent = new URL(seen.requests.at(-1) as string)
    assert.equal(sent.pathname, '/v2/labels')
    assert.equal(sent.searchParams.get('api_key'), t.admin.apiKey)
    assert.match(sent.searchParams.get('signature') ?? '', /^[A-Za-z0-9+/]{43}$/)
    assert.ok(Number(sent.searchParams.get('expires')) > Date.now() / 1000)
    assert.ok(!sent.search.includes(t.admin.secret), 'the secret is never sent')
  })

  it('signs a body too: POST /v2/labels creates the label', async () => {
    const block = operation('labels', 'createLabel')
    const status = await execute(page, block, JSON.stringify({ name: 'Made in the browser ⚽' }))
    await page.locator(block).screenshot({ path: join(SCREENSHOTS, 'try-it-out-create-label.png') })
    assert.equal(status, '200')
    const listed = await t.signed('GET', '/v2/labels')
    assert.ok((listed.json().items as Array<{ name: string }>).some((label) => label.name === 'Made in the browser ⚽'))
    assert.deepEqual(seen.violations, [])
  })

  it('sends requests unsigned again once the secret is forgotten', async () => {
    await page.click('#reelhouse-forget')
    const block = operation('users', 'getMe')
    const status = await execute(page, block)
    assert.equal(status, '400')
    assert.ok(!(seen.requests.at(-1) as string).includes('signature='))
  })
})
