import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { RouteOptions } from 'fastify'
import { leanRoutes } from '../../src/http/lean-lane/lean-routes.ts'
import { WrittenAnswers } from '../../src/http/serialised-once.ts'

// Which raw paths the lean lane takes for a route, as the router would read them.
const handler: RouteOptions['handler'] = async () => ({})
const route = (url: string, config?: object): RouteOptions => ({ method: 'GET', url, handler, config: { permission: ['players', 'read'], ...config } as RouteOptions['config'] })

describe('the lean lane\'s route match', () => {
  const match = leanRoutes([
    route('/v2/things/:thing_id', { lean: { param: 'thing_id', peek: () => undefined } }),
    route('/v2/things/me'),
    route('/v2/others/:other_id'),
    route('/v2/plain/list')
  ], new WrittenAnswers())

  it('takes a plain id under a lean prefix, never a fixed path another route serves there', () => {
    assert.equal(match('/v2/things/abc_D-9')?.id, 'abc_D-9')
    assert.equal(match('/v2/things/abc_D-9')?.route.url, '/v2/things/:thing_id')
    for (const path of ['/v2/things/me', '/v2/things/', '/v2/things/a%20b', '/v2/things/a.b', `/v2/things/${'x'.repeat(101)}`, '/v2/others/abc', '/v2/plain/list', '/v2/things/abc/more']) {
      assert.equal(match(path), undefined, path)
    }
  })
})
