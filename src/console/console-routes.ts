import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { consoleBundle, type ConsoleBundle } from './console-bundle.ts'

export interface ConsoleOptions {
  /** PUBLIC_API_URL: chunk, media and preview URLs start with it, so the policy admits its origin. */
  publicUrl: string
}

/**
 * The page's policy: its own script and stylesheet only, no inline code, no other host. `media-src blob:`
 * is where hls.js hands the video element its MediaSource, `data:` the empty WebVTT (`data:,WEBVTT`) of the
 * `<track>` elements it makes for subtitle tracks; hls.js runs without a worker, so no
 * `worker-src`. Images, media and requests may also go to PUBLIC_API_URL's origin, where the API builds
 * its absolute URLs (the same service behind another name).
 */
function consolePolicy (publicUrl: string): string {
  const own = ["'self'", ...originOf(publicUrl)].join(' ')
  return `default-src 'none'; script-src 'self'; style-src 'self'; img-src ${own} data:; media-src ${own} blob: data:; ` +
    `connect-src ${own}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`
}

function originOf (url: string): string[] {
  try {
    return [new URL(url).origin]
  } catch {
    return []
  }
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Reelhouse console</title>
<link rel="stylesheet" href="/console/app.css">
<script type="module" src="/console/app.js"></script>
</head>
<body>
<header class="top">
<a class="brand" href="/console#/">Reelhouse</a>
<nav id="nav" aria-label="Console"></nav>
<div id="whoami" class="whoami"></div>
</header>
<div id="error" class="error" role="alert" hidden></div>
<main id="main" tabindex="-1"><noscript>The console needs JavaScript.</noscript></main>
</body>
</html>
`

/**
 * `/console`: the web console, static files on the `api` listener (docs/console.md). Unsigned like the
 * landing page: the page itself holds no data; it signs its API requests in the browser.
 */
export const consoleRoutes: FastifyPluginAsyncTypebox<ConsoleOptions> = async (app, { publicUrl }) => {
  // Only where the API reference is served: the main listener, never the cached variant.
  if (!app.hasRoute({ method: 'GET', url: '/docs' })) return
  const policy = consolePolicy(publicUrl)
  const headers = (reply: FastifyReply, type: string): FastifyReply => reply
    .header('content-type', type)
    .header('content-security-policy', policy)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-cache')
  const asset = (type: string, pick: (bundle: ConsoleBundle) => string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const bundle = await consoleBundle()
    if (request.headers['if-none-match'] === bundle.etag) return await headers(reply, type).code(304).send()
    return await headers(reply, type).header('etag', bundle.etag).send(pick(bundle))
  }
  const route = { config: { public: true }, schema: { hide: true } }
  app.get('/console', route, async (_request, reply) => await headers(reply, 'text/html; charset=utf-8').send(PAGE))
  app.get('/console/app.js', route, asset('text/javascript; charset=utf-8', (bundle) => bundle.script))
  app.get('/console/app.css', route, asset('text/css; charset=utf-8', (bundle) => bundle.style))
}
