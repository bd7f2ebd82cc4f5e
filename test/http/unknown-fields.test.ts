import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { RouteOptions } from 'fastify'
import { buildTestApp, snapshot, type TestApp } from '../support/app.ts'

// A body with several unknown fields names every one of them, sorted, on every route whose body is a
// closed object, and before any other complaint about the body (a misspelt field is usually why a
// required one is "missing"). The routes come from the app's route table, so a new one is covered.

type Schema = Record<string, any>

const TABLES = ['users', 'labels', 'players', 'publishing_rules', 'assets', 'asset_metadata', 'asset_labels', 'syndications', 'syndication_access_keys', 'outbox']
// Names near no field of any route, so no route adds a "Did you mean" (tested on its own below).
const UNKNOWN = { colour: 'red', bogus: 1, Quux_id: 'x' }

/** A closed object: a JSON object whose schema refuses fields it does not name. */
function isClosedObject (schema: Schema | undefined): boolean {
  return schema?.type === 'object' && schema.additionalProperties === false
}

/** The closed object a property holds, also when it may be null (`anyOf: [object, null]`). */
function closedObjectOf (schema: Schema): Schema | undefined {
  if (isClosedObject(schema)) return schema
  return (schema.anyOf as Schema[] | undefined)?.find(isClosedObject)
}

/** The order the message lists fields in: by name, ignoring case. */
function byName (a: string, b: string): number {
  return a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0
}

interface BodyRoute { method: string, url: string, body: Schema }

function bodyRoutes (routes: readonly RouteOptions[]): BodyRoute[] {
  return routes.flatMap((route) => {
    const body = route.schema?.body as Schema | undefined
    if (body === undefined || !isClosedObject(body) || route.config?.public === true) return []
    return [route.method].flat().map((method) => ({ method, url: route.url, body }))
  })
}

/** The route's path with every parameter filled; the schema is checked before any id is looked up. */
function pathOf (url: string): string {
  return url.replace(/:[a-z_]+/g, 'ffffffffffffffffffffffffffffffff')
}

describe('unknown body fields', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite') })
  after(async () => { await t.close() })

  it('finds the create and update routes of every resource in the route table', () => {
    const found = bodyRoutes(t.app.routeTable).map((route) => `${route.method} ${route.url}`)
    for (const expected of ['POST /v2/users', 'PATCH /v2/users/:user_id', 'POST /v2/labels', 'PUT /v2/labels/:label_id',
      'POST /v2/players', 'PATCH /v2/players/:player_id', 'POST /v2/publishing_rules', 'PUT /v2/publishing_rules/:publishing_rule_id',
      'POST /v2/assets', 'PATCH /v2/assets/:asset_id', 'PUT /v2/assets/:asset_id', 'POST /v2/syndications', 'PATCH /v2/syndications/:syndication_id']) {
      assert.ok(found.includes(expected), `${expected} is not among ${found.join(', ')}`)
    }
  })

  it('names every unknown field at the top level, sorted, whatever else is missing, and writes nothing', async () => {
    const before = await snapshot(t.ctx, TABLES)
    for (const route of bodyRoutes(t.app.routeTable)) {
      const res = await t.signed(route.method, pathOf(route.url), { body: UNKNOWN })
      const where = `${route.method} ${route.url}`
      assert.equal(res.statusCode, 400, `${where}: ${res.body}`)
      assert.equal(res.json().message, 'Unknown fields: bogus, colour, Quux_id.', where)
      assert.equal(res.json().detail, res.json().message, where)
      for (const field of Object.keys(UNKNOWN)) assert.deepEqual(res.json().errors[field], ['is not a known field'], `${where}: ${field}`)
    }
    assert.equal(await snapshot(t.ctx, TABLES), before)
  })

  it('names the unknown fields of nested objects with their path, beside those of the top level', async () => {
    let nested = 0
    for (const route of bodyRoutes(t.app.routeTable)) {
      for (const [name, property] of Object.entries(route.body.properties as Record<string, Schema>)) {
        if (closedObjectOf(property) === undefined) continue
        nested++
        const res = await t.signed(route.method, pathOf(route.url), { body: { [name]: { zeta: 1, Omega: 2 }, bogus: true } })
        const where = `${route.method} ${route.url} ${name}`
        assert.equal(res.statusCode, 400, `${where}: ${res.body}`)
        const expected = [`${name}.zeta`, `${name}.Omega`, 'bogus'].sort(byName)
        assert.equal(res.json().message, `Unknown fields: ${expected.join(', ')}.`, where)
      }
    }
    assert.ok(nested >= 6, `only ${nested} nested closed objects found`)
  })

  it('suggests the nearest known name of the same object: another spelling, a typo, a nested field', async () => {
    const cases: Array<[string, string, object, string]> = [
      ['POST', '/v2/labels', { name: 'x', colour: 'red', parentId: 'p' }, 'Unknown fields: colour, parentId. Did you mean parent_id?'],
      ['POST', '/v2/labels', { nmae: 'x', 'Parent-ID': 'p' }, 'Unknown fields: nmae, Parent-ID. Did you mean name (for nmae), parent_id (for Parent-ID)?'],
      ['POST', '/v2/assets', { asset_type: 'remote_asset', name: 'x', descripton: 'd' }, 'Unknown fields: descripton. Did you mean description?'],
      ['POST', '/v2/players', { name: 'x', watermark: { alpah: 0.5 } }, 'Unknown fields: watermark.alpah. Did you mean watermark.alpha?'],
      ['POST', '/v2/players', { name: 'x', skin: 'dark' }, 'Unknown fields: skin.']
    ]
    for (const [method, path, body, message] of cases) {
      const res = await t.signed(method, path, { body })
      assert.equal(res.statusCode, 400, res.body)
      assert.equal(res.json().message, message)
    }
  })

  it('still answers a body without unknown fields with its first problem', async () => {
    const res = await t.signed('POST', '/v2/labels', { body: {} })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'Field name is required.')
  })

  it('names at most 20 fields in the message and counts the rest', async () => {
    const body = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`extra_${String(i).padStart(2, '0')}`, i]))
    const res = await t.signed('POST', '/v2/labels', { body: { name: 'fine', ...body } })
    assert.equal(res.statusCode, 400)
    const names = Array.from({ length: 20 }, (_, i) => `extra_${String(i).padStart(2, '0')}`).join(', ')
    assert.equal(res.json().message, `Unknown fields: ${names} and 10 more.`)
    assert.equal(Object.keys(res.json().errors).length, 30)
  })
  it('keeps the first 100 in errors and counts every one of thousands', async () => {
    const body = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`x${String(i).padStart(4, '0')}`, 0]))
    const res = await t.signed('POST', '/v2/labels', { body: { name: 'fine', ...body } })
    assert.equal(res.statusCode, 400)
    assert.match(res.json().message, /^Unknown fields: x0000, x0001, .* x0019 and 4980 more\.$/)
    assert.equal(Object.keys(res.json().errors).length, 100)
  })
})
