import { createHash } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

export interface LandingOptions {
  /** Link the web console too (only where one is served). */
  console?: boolean
}

const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;margin:3rem auto;max-width:40rem;padding:0 1rem;color:#222}' +
  'h1{font-size:1.6rem}code{background:#f3f3f3;padding:0 .2em}li{margin:.4rem 0}'

/**
 * The page `GET /` answers on the main service: what this is and where to go. It has no script at all
 * and one inline style, allowed by its hash; the policy forbids everything else (docs/api.md, "Operations").
 */
export function landingPage (options: LandingOptions = {}): { html: string, contentSecurityPolicy: string } {
  const links = [
    '<li><a href="/docs">API reference</a>: every operation, its parameters and answers</li>',
    '<li><a href="/openapi.json">OpenAPI document</a>, for client generators</li>',
    '<li><a href="/docs/errors">Error reference</a>: what each error code means and how to fix it</li>',
    ...(options.console === true ? ['<li><a href="/console">Console</a>: manage the account in the browser</li>'] : []),
    '<li><a href="/health">/health</a> and <a href="/ready">/ready</a>: liveness and readiness</li>'
  ]
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Reelhouse</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Reelhouse</h1>
<p>Media management and analytics. Requests under <code>/v2</code> are signed with an API key and its
secret (<code>api_key</code>, <code>expires</code>, <code>signature</code>).</p>
<ul>
${links.join('\n')}
</ul>
</main>
</body>
</html>
`
  const styleHash = createHash('sha256').update(STYLE).digest('base64')
  const contentSecurityPolicy = `default-src 'none'; style-src 'sha256-${styleHash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`
  return { html, contentSecurityPolicy }
}

/**
 * `GET /`: the landing page, unsigned, on the listener that serves the API reference (`/docs`); where
 * there is none (the cached variant) `/` stays a 404.
 */
export const landingRoutes: FastifyPluginAsyncTypebox<LandingOptions> = async (app, options) => {
  if (!app.hasRoute({ method: 'GET', url: '/docs' })) return
  const page = landingPage(options)
  app.get('/', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => await reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', page.contentSecurityPolicy)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(page.html))
}
