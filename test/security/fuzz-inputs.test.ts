import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import { buildTestApp, type TestApp } from '../support/app.ts'

// Property-based fuzzing of every input the service parses: whatever arrives, the answer is never a
// 5xx, and an error is always our problem document. FUZZ_RUNS sets the runs per property (docs/security.md).
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000)
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED)

/** Names a plain object already answers to: each must stay an ordinary unknown name. */
const PROTO_KEYS = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf',
  'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__lookupGetter__', 'prototype']
const FIELD_WORDS = ['name', 'description', 'metadata', 'labels', 'player_id', 'external_id', 'asset_type', 'parent_id',
  'role', 'time_restrictions', 'recurring_days', 'stream_urls', 'ipad', 'type', 'events', 'time', 'percent', 'value']

const key = fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.constantFrom(...FIELD_WORDS), fc.string({ maxLength: 12 }))
const word = fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.constantFrom(...FIELD_WORDS), fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 8 }))

/** JSON text of an object whose keys may be any of the above, nested; `__proto__` is written as an own key. */
const jsonObject: fc.Arbitrary<string> = fc.letrec<{ value: string, object: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }).map((v) => JSON.stringify(v)), tie('object')),
  object: fc.array(fc.tuple(key, tie('value')), { maxLength: 5 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`)
})).object

/** Our error format (docs/api.md, "Responses and errors"); a success is anything below 500. */
function assertOurAnswer (res: LightMyRequestResponse, what: string): void {
  assert.ok(res.statusCode < 500, `${what}: ${res.statusCode} ${res.body}`)
  if (res.statusCode < 400) return
  const body = res.json() as Record<string, unknown>
  for (const member of ['message', 'code', 'type', 'title', 'request_id']) {
    assert.equal(typeof body[member], 'string', `${what}: no ${member} in ${res.body}`)
  }
  assert.equal(body.status, res.statusCode, `${what}: ${res.body}`)
}

async function check<T> (arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<void>): Promise<void> {
  await fc.assert(fc.asyncProperty(arbitrary, run), { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) })
}

describe(`fuzzed input (${RUNS} runs per property)`, () => {
  let t: TestApp
  let cdn: TestApp
  const ids: Record<string, string> = {}
  before(async () => {
    t = await buildTestApp('sqlite')
    cdn = await buildTestApp('sqlite', {}, 'cdn')
    const create = async (path: string, body: object): Promise<string> => {
      const res = await t.signed('POST', path, { body })
      assert.equal(res.statusCode, 200, `fixture ${path}: ${res.body}`)
      return res.json().id
    }
    ids.label_id = await create('/v2/labels', { name: 'Fuzz' })
    ids.player_id = await create('/v2/players', { name: 'Fuzz' })
    ids.asset_id = await create('/v2/assets', { name: 'Fuzz', asset_type: 'video', file_name: 'fuzz.mp4', file_size: 1000 })
    ids.publishing_rule_id = await create('/v2/publishing_rules', { name: 'Fuzz' })
    ids.syndication_id = await create('/v2/syndications', { name: 'Fuzz', type: 'mrss' })
    ids.user_id = t.admin.userId
  })
  after(async () => { await t?.close(); await cdn?.close() })

  /** Every route that takes a JSON body, with its parameters filled with real ids. */
  function bodyRoutes (): Array<{ method: string, url: string, public: boolean }> {
    return t.app.routeTable
      .filter((route) => route.schema?.body !== undefined && route.config?.streamBody !== true)
      .flatMap((route) => [route.method].flat().map((method) => ({
        method,
        url: route.url.replace(/:([a-z_]+)/g, (_, name: string) => ids[name] ?? 'ffffffffffffffffffffffffffffffff'),
        public: route.config?.public === true
      })))
  }

  it('answers every JSON body on every route that takes one with our format, never a 5xx', async () => {
    const routes = bodyRoutes()
    assert.ok(routes.length > 20, `only ${routes.length} routes take a body`)
    await check(fc.tuple(fc.constantFrom(...routes), jsonObject), async ([route, body]) => {
      const res = route.public
        ? await t.app.inject({ method: route.method as 'POST', url: route.url, payload: body })
        : await t.signed(route.method, route.url, { body })
      assertOurAnswer(res, `${route.method} ${route.url} ${body}`)
    })
  })

  for (const parameter of ['where', 'orderby', 'include', 'page_token', 'limit']) {
    it(`answers any ${parameter} on the asset and label lists with our format`, async () => {
      const value = fc.oneof(word, fc.tuple(fc.constantFrom('name', 'created_at', 'metadata', 'labels'), fc.constantFrom(...PROTO_KEYS)).map(([a, b]) => `${a} ${b}`), fc.tuple(fc.array(word, { maxLength: 4 }), fc.constantFrom(' ', '+', ',', '=', "'", ' AND ')).map(([words, glue]) => words.join(glue)))
      await check(fc.tuple(fc.constantFrom('/v2/assets', '/v2/labels', '/v2/deleted_assets', `/v2/labels/${ids.label_id}/assets`), value), async ([path, v]) => {
        const res = await t.signed('GET', path, { params: { [parameter]: v } })
        assertOurAnswer(res, `GET ${path} ${parameter}=${JSON.stringify(v)}`)
      })
    })
  }

  it('answers any query keys, signed, with our format', async () => {
    const pairs = fc.dictionary(key, word, { maxKeys: 4, noNullPrototype: true })
    await check(fc.tuple(fc.constantFrom('/v2/assets', '/v2/labels', '/v2/players', '/v2/analytics/reports', '/v2/users/me'), pairs), async ([path, params]) => {
      const res = await t.signed('GET', path, { params: params as Record<string, string> })
      assertOurAnswer(res, `GET ${path} ${JSON.stringify(Object.entries(params))}`)
    })
  })

  it('answers any classic report path and order_by with our format', async () => {
    const dimension = fc.oneof(fc.constantFrom('total', 'videos', 'countries', 'domains', 'device_types'), word)
    const parts = fc.oneof(fc.array(word, { maxLength: 5 }), fc.tuple(dimension, fc.constantFrom('2026-11-01', '2026-11-01...2026-11-03')).map(([d, range]) => ['performance', d, range]))
    await check(fc.tuple(parts, fc.oneof(word, fc.constantFrom('plays', 'replays'))), async ([parts, orderBy]) => {
      const path = `/v2/analytics/reports/account/${parts.map(encodeURIComponent).join('/')}`
      const res = await t.signed('GET', path, { params: { order_by: orderBy } })
      assertOurAnswer(res, `GET ${path} order_by=${JSON.stringify(orderBy)}`)
    })
  })

  it('answers any JSONP callback name on the cached variant with our format or a script', async () => {
    await check(word, async (callback) => {
      const res = await cdn.signed('GET', '/v2/labels', { params: { callback } })
      assert.ok(res.statusCode < 500, `callback=${JSON.stringify(callback)}: ${res.statusCode} ${res.body}`)
      if (res.statusCode >= 400) assertOurAnswer(res, `callback=${JSON.stringify(callback)}`)
    })
  })
})
