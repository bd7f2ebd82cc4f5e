// Signs the API reference's "Try it out" requests in the browser, by the signing rules of docs/api.md
// ("Signing"): an API key and its secret, entered once in the Signing panel, stay in this page's memory
// (never stored, never sent); each request to /v2 gets api_key, expires and signature before it leaves.
// Served as a file under /docs (the page's Content-Security-Policy allows no inline script); Swagger UI
// calls `reelhouseSigning.sign` as its request interceptor.
'use strict'
;(function () {
  const SIGNING_PARAMETERS = new Set(['api_key', 'expires', 'signature'])
  const VALID_FOR_SECONDS = 15 * 60
  let credentials = null

  /** A query key or value as the server reads it: percent-decoded, `+` as a space. */
  function decode (part) {
    if (part.indexOf('%') === -1 && part.indexOf('+') === -1) return part
    return decodeURIComponent(part.replace(/\+/g, ' '))
  }

  function pairOf (segment) {
    const eq = segment.indexOf('=')
    return eq === -1 ? [decode(segment), ''] : [decode(segment.slice(0, eq)), decode(segment.slice(eq + 1))]
  }

  /** GET, HEAD and DELETE sign an empty body, whatever they carry. */
  function signsBody (method) {
    return method !== 'GET' && method !== 'HEAD' && method !== 'DELETE'
  }

  async function signature (secret, method, path, pairs, body) {
    const sorted = pairs.slice().sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    const text = secret + method + path + sorted.map(([key, value]) => key + '=' + value).join('') + body
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
    let binary = ''
    for (const byte of digest) binary += String.fromCharCode(byte)
    return btoa(binary).slice(0, 43).replace(/=+$/, '')
  }

  /** Swagger UI's request interceptor: signs requests to this origin's /v2 once a key and secret are set. */
  async function sign (request) {
    if (credentials === null) return request
    const url = new URL(request.url, window.location.href)
    if (url.origin !== window.location.origin || !url.pathname.startsWith('/v2/')) return request
    const method = String(request.method || 'GET').toUpperCase()
    const kept = url.search.slice(1).split('&').filter((segment) => segment !== '' && !SIGNING_PARAMETERS.has(pairOf(segment)[0]))
    const expires = Math.floor(Date.now() / 1000) + VALID_FOR_SECONDS
    const query = kept.concat(['api_key=' + encodeURIComponent(credentials.apiKey), 'expires=' + expires])
    const body = signsBody(method) && typeof request.body === 'string' ? request.body : ''
    const signed = await signature(credentials.secret, method, url.pathname, query.map(pairOf), body)
    request.url = url.origin + url.pathname + '?' + query.join('&') + '&signature=' + encodeURIComponent(signed)
    return request
  }

  function element (tag, attributes, text) {
    const node = document.createElement(tag)
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
    if (text !== undefined) node.textContent = text
    return node
  }

  /** The panel above the reference where the key and the secret are entered. */
  function panel () {
    const section = element('section', { class: 'reelhouse-signing', 'aria-label': 'Signing' })
    const apiKey = element('input', { id: 'reelhouse-api-key', autocomplete: 'off', spellcheck: 'false', placeholder: '<account_code>.<random>' })
    const secret = element('input', { id: 'reelhouse-secret', type: 'password', autocomplete: 'off', placeholder: 'secret' })
    const use = element('button', { id: 'reelhouse-sign', type: 'button' }, 'Sign requests')
    const forget = element('button', { id: 'reelhouse-forget', type: 'button' }, 'Forget')
    const state = element('span', { id: 'reelhouse-signing-state', role: 'status' })
    const keyLabel = element('label', {}, 'API key ')
    const secretLabel = element('label', {}, 'Secret ')
    keyLabel.append(apiKey)
    secretLabel.append(secret)
    section.append(element('strong', {}, 'Signing'), keyLabel, secretLabel, use, forget, state)

    const show = () => {
      if (window.crypto?.subtle === undefined) state.textContent = 'Signing in the browser needs HTTPS (or localhost).'
      else state.textContent = credentials === null ? 'Enter an API key and its secret to try requests.' : `Requests are signed as ${credentials.apiKey}.`
    }
    use.addEventListener('click', () => {
      const key = apiKey.value.trim()
      if (key === '' || secret.value === '') {
        state.textContent = 'Both the API key and the secret are needed.'
        return
      }
      credentials = { apiKey: key, secret: secret.value }
      secret.value = ''
      show()
    })
    forget.addEventListener('click', () => {
      credentials = null
      show()
    })
    show()
    return section
  }

  window.reelhouseSigning = { sign }
  document.body.insertBefore(panel(), document.body.firstChild)
})()
