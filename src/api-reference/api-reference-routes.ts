import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { errorsPage } from './errors-page.ts'
import { openapiOptions } from './openapi-document.ts'

const browserFile = (name: string): string => readFileSync(join(import.meta.dirname, 'browser', name), 'utf8')

/**
 * The reference's pages run only their own files: no inline script, no other origin. Images include
 * `data:` URIs because Swagger UI's stylesheet draws its icons with them.
 */
const DOCS_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * The API reference on the main listener: `/openapi.json`, the reference UI at `/docs` (Swagger UI, whose
 * "Try it out" signs requests in the browser: browser/try-it-out.js), and `/docs/errors`, where the `type`
 * of every problem document points. All of it is public, like the document it shows.
 */
export async function registerApiReference (app: FastifyInstance): Promise<void> {
  await app.register(swagger, openapiOptions())
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => { route.config = { ...route.config, public: true } })
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: DOCS_CSP,
      theme: {
        title: 'Reelhouse API reference',
        js: [{ filename: 'try-it-out.js', content: browserFile('try-it-out.js') }],
        css: [{ filename: 'try-it-out.css', content: browserFile('try-it-out.css') }]
      },
      uiConfig: {
        // Without the top bar: its logo carries an inline style the page's policy refuses, and the
        // Signing panel takes its place.
        layout: 'BaseLayout',
        docExpansion: 'list',
        displayOperationId: true,
        defaultModelsExpandDepth: 0,
        // Serialized into the page's own script file; the signing lives in try-it-out.js.
        requestInterceptor: (request: unknown) => (globalThis as any).reelhouseSigning.sign(request)
      }
    })
  })
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger())

  const errors = errorsPage()
  app.get('/docs/errors', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => await reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', errors.contentSecurityPolicy)
    .header('x-content-type-options', 'nosniff')
    .send(errors.html))
}
