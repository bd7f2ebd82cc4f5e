import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { hoistComponents, shareErrorResponses } from '../../src/api-reference/openapi-components.ts'

// How the document shares schemas and error responses: a titled schema is written once under
// components and referred to everywhere, nested ones included; a title used for two different schemas
// stops the build; only problem documents become shared responses.

const label = { title: 'Label', type: 'object', properties: { name: { type: 'string' } } }
const problem = { title: 'Problem', type: 'object', properties: { code: { type: 'string' } } }
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } })

describe('the document\'s shared parts', () => {
  it('moves titled schemas to components, nested ones too, and leaves references', () => {
    const asset = { title: 'Asset', type: 'object', properties: { labels: { type: 'array', items: structuredClone(label) } } }
    const document: Record<string, any> = {
      paths: {
        '/v2/assets': { get: { responses: { 200: json(asset) } } },
        '/v2/labels': { get: { responses: { 200: json(structuredClone(label)) } } }
      }
    }
    hoistComponents(document)
    assert.deepEqual(document.paths['/v2/assets'].get.responses[200].content['application/json'].schema, { $ref: '#/components/schemas/Asset' })
    assert.deepEqual(document.paths['/v2/labels'].get.responses[200].content['application/json'].schema, { $ref: '#/components/schemas/Label' })
    assert.deepEqual(document.components.schemas.Asset.properties.labels.items, { $ref: '#/components/schemas/Label' })
    assert.deepEqual(document.components.schemas.Label, label)
  })

  it('refuses two different schemas with one title', () => {
    const other = { ...label, properties: { id: { type: 'string' } } }
    const document = { paths: { '/a': { get: { responses: { 200: json(label) } } }, '/b': { get: { responses: { 200: json(other) } } } } }
    assert.throws(() => { hoistComponents(document) }, /two different schemas are titled Label/)
  })

  it('shares the problem responses of each status, and keeps an operation\'s own error answer', () => {
    const unavailable = { description: 'Down', ...json({ $ref: '#/components/schemas/Problem' }) }
    const readiness = { description: 'Down', ...json({ $ref: '#/components/schemas/Readiness' }) }
    const document: Record<string, any> = {
      paths: {
        '/ready': { get: { responses: { 503: structuredClone(readiness) } } },
        '/v2/reports': { get: { responses: { 503: structuredClone(unavailable), 404: structuredClone(unavailable) } } }
      },
      components: { schemas: { Problem: problem } }
    }
    shareErrorResponses(document)
    assert.deepEqual(document.paths['/ready'].get.responses[503], readiness)
    assert.deepEqual(document.paths['/v2/reports'].get.responses[503], { $ref: '#/components/responses/Unavailable' })
    assert.deepEqual(document.paths['/v2/reports'].get.responses[404], { $ref: '#/components/responses/NotFound' })
    assert.deepEqual(document.components.responses.Unavailable, unavailable)
  })
})
