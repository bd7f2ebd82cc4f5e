import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** Why the browser tests step aside, or false when Debian's chromium is there. */
export const NO_CHROMIUM = existsSync(CHROMIUM) ? false : `needs chromium at ${CHROMIUM} (Debian package chromium)`
/** The flags that run Debian's chromium headless in a container, without reaching out to the network. */
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required']

/** What a page did that it should not have: policy violations and script errors. */
export interface Seen { violations: string[], errors: string[] }

export interface Browser {
  context: BrowserContext
  seen: Seen
  /** A new tab (its own sessionStorage), watched for violations and errors. */
  tab: () => Promise<Page>
  close: () => Promise<void>
}

/** Chromium with a fresh profile; the server's self-signed certificate is accepted. */
export async function launchBrowser (): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'reelhouse-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 }
  })
  const seen: Seen = { violations: [], errors: [] }
  // Injected by the debugging protocol, so the page's own policy does not apply to it.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`csp-violation ${event.violatedDirective} ${event.blockedURI} ${event.sample}`)
    })
  })
  const watch = (page: Page): Page => {
    page.on('console', (message) => {
      if (message.text().startsWith('csp-violation')) seen.violations.push(message.text())
      else if (message.type() === 'error' && !/the server responded with a status of 4\d\d/.test(message.text())) seen.errors.push(message.text())
    })
    page.on('pageerror', (error) => { seen.errors.push(error.message) })
    return page
  }
  const first = context.pages()[0]
  let firstTaken = false
  return {
    context,
    seen,
    tab: async () => {
      if (!firstTaken && first !== undefined) {
        firstTaken = true
        return watch(first)
      }
      return watch(await context.newPage())
    },
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
  }
}
