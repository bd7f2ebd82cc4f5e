import 'uplot/dist/uPlot.min.css'
import './console.css'
import { Reelhouse } from 'reelhouse/client'
import { analyticsView } from './analytics-view.ts'
import { assetView } from './asset-view.ts'
import { h } from './dom.ts'
import { libraryView } from './library-view.ts'
import { abilitiesOf } from './roles.ts'
import { forgetCredentials, saveCredentials, savedCredentials, takeLinkCredentials, type Credentials } from './session.ts'
import { clearError, showError, type Session } from './shell.ts'
import { signInView } from './sign-in-view.ts'
import { webhooksView } from './webhooks-view.ts'

// The console's entry: sign in (a link's fragment, this tab's session, or the form), ask the API who the
// user is, then show the view the address names (`#/library`, `#/assets/<id>`, `#/analytics`, `#/webhooks`).

async function signIn (credentials: Credentials): Promise<void> {
  clearError()
  const client = new Reelhouse({ baseUrl: location.origin, apiKey: credentials.apiKey, secret: credentials.secret })
  let me
  try {
    me = await client.users.me()
  } catch (error) {
    forgetCredentials()
    signInView(start)
    showError(error)
    return
  }
  saveCredentials(credentials)
  const session: Session = { client, credentials, me, can: abilitiesOf(me.role) }
  header(session)
  window.addEventListener('hashchange', () => { route(session) })
  route(session)
}

function start (credentials: Credentials): void {
  void signIn(credentials)
}

function header (session: Session): void {
  const links = [
    session.can.library ? h('a', { href: '#/library' }, 'Library') : null,
    session.can.analytics ? h('a', { href: '#/analytics' }, 'Analytics') : null,
    session.can.webhooks ? h('a', { href: '#/webhooks' }, 'Webhooks') : null
  ].filter((link) => link !== null)
  document.getElementById('nav')?.replaceChildren(...links)
  const signOut = h('button', { type: 'button', class: 'link' }, 'Sign out')
  signOut.addEventListener('click', () => {
    forgetCredentials()
    location.hash = ''
    location.reload()
  })
  // The first administrator is named after its role: say each thing once ("Administrator · Default account").
  const role = session.me.role.replace('_', ' ')
  const named = session.me.name.trim().toLowerCase() === role.toLowerCase()
  document.getElementById('whoami')?.replaceChildren(
    h('span', {}, named ? h('span', { class: 'role' }, role) : session.me.name,
      named ? null : ' · ', named ? null : h('span', { class: 'role' }, role), ` · ${session.me.account.name}`),
    signOut)
}

function route (session: Session): void {
  clearError()
  const [view, id] = (location.hash.replace(/^#\/?/, '').split('?')[0] as string).split('/')
  const shown = view === 'webhooks' && session.can.webhooks ? 'webhooks' : view === 'assets' || view === 'library' || (view !== 'analytics' && session.can.library) ? 'library' : 'analytics'
  for (const link of document.querySelectorAll('#nav a')) {
    if (link.getAttribute('href') === `#/${shown}`) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
  }
  if (view === 'assets' && id !== undefined && session.can.library) return assetView(session, safeDecode(id))
  if (view === 'analytics' && session.can.analytics) return analyticsView(session)
  if (view === 'webhooks' && session.can.webhooks) return webhooksView(session)
  if (session.can.library) return libraryView(session)
  return analyticsView(session)
}

/** A hand-edited address may hold a broken escape: it is then taken as written (the API answers 404). */
function safeDecode (text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

const credentials = takeLinkCredentials() ?? savedCredentials()
if (credentials === undefined) signInView(start)
else start(credentials)
