import assert from 'node:assert/strict'
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { pageServer, type PageServer } from './support/page-server.ts'
import { startClientServer, type ClientServer } from './support/client-server.ts'

const run = promisify(execFile)
const PACKAGE = join(import.meta.dirname, '..', '..', 'packages', 'client')
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path))

/** The page's script: the client from the bundle, a few calls, and what happened, posted back. */
const APP = `
import { NotFoundError, Reelhouse, where } from './reelhouse-client.js'
const violations = []
document.addEventListener('securitypolicyviolation', (event) => violations.push(event.violatedDirective))
const report = (body) => fetch('/report', { method: 'POST', body: JSON.stringify({ ...body, violations, secure: isSecureContext }) })
try {
  const { apiKey, secret } = await (await fetch('/config.json')).json()
  const client = new Reelhouse({ baseUrl: location.origin, apiKey, secret })
  const me = await client.users.me()
  await client.labels.createByFullPath(['/Page/One', '/Page/Two'])
  const names = []
  for await (const label of client.labels.list({ limit: 1 })) names.push(label.full_name)
  const notFound = await client.players.get('f'.repeat(32)).then(() => false, (error) => error instanceof NotFoundError && error.code === 'player_not_found')
  const live = await client.assets.list({ where: where('status', '=', 'live') }).toArray()
  // Two labels made in the same millisecond tie on created_at; their order between them is not promised.
  await report({ ok: true, role: me.role, names: names.sort(), notFound, live: live.length })
} catch (error) {
  await report({ ok: false, error: String(error) })
}
`

describe('the browser build in Chromium, under a strict Content Security Policy', { skip: CHROMIUM === undefined ? 'needs Debian\'s chromium (/usr/bin/chromium)' : false }, () => {
  let scratch: string
  let server: ClientServer
  let page: PageServer
  let browser: ChildProcess | undefined
  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'reelhouse-client-browser-'))
    // The package's own browser build command for the client (the first of the script; the beacon is its own bundle).
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    const args = (manifest.scripts['build:browser'] as string).split(' && ')[0]!.split(' ').slice(1)
      .map((arg) => arg.startsWith('--outfile=') ? `--outfile=${join(scratch, 'reelhouse-client.js')}` : arg)
    await run(join(PACKAGE, '..', '..', 'node_modules', '.bin', 'esbuild'), args, { cwd: PACKAGE })
    server = await startClientServer('sqlite')
    page = await pageServer({
      '/': { type: 'text/html; charset=utf-8', body: '<!doctype html><meta charset="utf-8"><title>client</title><script type="module" src="/app.js"></script>' },
      '/app.js': { type: 'text/javascript', body: APP },
      '/reelhouse-client.js': { type: 'text/javascript', body: readFileSync(join(scratch, 'reelhouse-client.js'), 'utf8') },
      '/config.json': { type: 'application/json', body: JSON.stringify({ apiKey: server.admin.apiKey, secret: server.admin.secret }) }
    }, server.baseUrl)
  })
  after(async () => {
    if (browser?.pid !== undefined && browser.exitCode === null) process.kill(-browser.pid, 'SIGKILL')
    await page?.close()
    await server?.close()
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true })
  })

  it('bundles into one ESM file without imports', () => {
    const bundle = readFileSync(join(scratch, 'reelhouse-client.js'), 'utf8')
    assert.doesNotMatch(bundle, /^\s*import\s/m)
    assert.doesNotMatch(bundle, /from\s*["']node:/)
  })

  it('signs with WebCrypto, lists, and maps errors in a page, with no CSP violation', async () => {
    browser = spawn(CHROMIUM as string, [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--user-data-dir=${join(scratch, 'profile')}`, `${page.url}/`
    ], { stdio: 'ignore', detached: true })
    const timeout = new Promise((_resolve, reject) => setTimeout(() => reject(new Error('the page reported nothing within 60 s')), 60_000).unref())
    const result = await Promise.race([page.report, timeout])
    assert.deepEqual(result, { ok: true, role: 'administrator', names: ['/Page', '/Page/One', '/Page/Two'], notFound: true, live: 0, violations: [], secure: true })
    assert.deepEqual(page.violations, [])
  })
})
