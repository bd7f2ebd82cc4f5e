import { field, h } from './dom.ts'
import { mainView } from './shell.ts'
import type { Credentials } from './session.ts'

/** The sign-in form: an API key and its secret, kept in this tab only. */
export function signInView (onSignIn: (credentials: Credentials) => void): void {
  const main = mainView('Sign in')
  const apiKey = h('input', { name: 'api_key', autocomplete: 'username', required: true, spellcheck: 'false' })
  const secret = h('input', { name: 'secret', type: 'password', autocomplete: 'current-password', required: true })
  const form = h('form', { class: 'card sign-in', 'aria-labelledby': 'sign-in-title' },
    h('h1', { id: 'sign-in-title' }, 'Sign in'),
    h('p', {}, 'With an API key and its secret (', h('code', {}, 'reelhouse console'), ' prints a link that signs you in). ' +
      'The secret stays in this tab: every request is signed here and the secret is never sent.'),
    field('API key', apiKey),
    field('Secret', secret),
    h('button', { type: 'submit' }, 'Sign in'))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    onSignIn({ apiKey: apiKey.value.trim(), secret: secret.value.trim() })
  })
  main.append(form)
  apiKey.focus()
}
