import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { lint, servedDocument } from '../../scripts/openapi-lint.ts'

// The OpenAPI document /openapi.json serves, and its lint (npm run check:openapi): the rules must pass on
// the real document and must catch each kind of gap on a damaged copy.

type Node = Record<string, any>

const SIGNING = ['api_key', 'expires', 'signature']
const PUBLIC_OPERATIONS = ['collectEvents', 'getSyndicationFeed', 'getHealth', 'getReadiness', 'putUploadChunk', 'getMasterPlaylist', 'getPreviewImage', 'getRenditionFile', 'getSignedRenditionFile', 'getSignedSubtitleFile', 'getSourceFile', 'getStoryboard', 'getMp4Download', 'getM4aDownload', 'getCaptionTrackFile', 'getSubtitleFile']

function operationsOf (document: Node): Array<{ path: string, method: string, operation: Node }> {
  return Object.entries(document.paths as Record<string, Node>).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ path, method, operation: operation as Node })))
}

describe('the OpenAPI document', () => {
  let text: string
  let document: Node
  let scratch: string
  before(async () => {
    text = await servedDocument()
    document = JSON.parse(text)
    scratch = mkdtempSync(join(tmpdir(), 'reelhouse-openapi-test-'))
  })
  after(() => { rmSync(scratch, { recursive: true, force: true }) })

  it('passes the lint: summaries, descriptions, operationIds, 4xx answers, described fields with examples that fit', () => {
    const file = join(scratch, 'openapi.json')
    writeFileSync(file, text)
    const { status, output } = lint(file, 'pipe')
    assert.equal(status, 0, output)
    assert.match(output, /valid/)
  })

  it('fails the lint for each kind of gap', () => {
    const damaged = JSON.parse(text) as Node
    const labels = damaged.paths['/v2/labels'] as Node
    delete labels.get.summary
    delete labels.post.description
    delete labels.get.operationId
    for (const status of Object.keys(labels.post.responses)) if (status.startsWith('4')) delete labels.post.responses[status]
    delete damaged.components.schemas.Label.properties.name.description
    delete damaged.components.schemas.Label.properties.full_name.examples
    const limit = (labels.get.parameters as Node[]).find((parameter) => parameter.name === 'limit') as Node
    delete limit.description
    damaged.components.schemas.Label.properties.parent_id.examples = [42]
    const file = join(scratch, 'damaged.json')
    writeFileSync(file, JSON.stringify(damaged))
    const { status, output } = lint(file, 'pipe')
    assert.notEqual(status, 0, output)
    for (const rule of ['operation-summary', 'operation-description', 'operation-operationId', 'operation-4xx-response',
      'reelhouse/field-documented', 'reelhouse/parameter-documented', 'no-invalid-schema-examples']) {
      assert.ok(output.includes(rule), `the lint did not report ${rule}:\n${output}`)
    }
    assert.match(output, /Field name has no description/)
    assert.match(output, /Field full_name has no example/)
    assert.match(output, /Parameter limit has no description/)
  })

  it('describes the signing parameters once, as three security schemes required together, and in no operation', () => {
    for (const name of SIGNING) assert.deepEqual(document.components.securitySchemes[name].in, 'query')
    assert.deepEqual(document.security, [{ api_key: [], expires: [], signature: [] }])
    for (const { path, method, operation } of operationsOf(document)) {
      const names = ((operation.parameters ?? []) as Node[]).map((parameter) => parameter.name)
      for (const name of SIGNING) assert.ok(!names.includes(name), `${method} ${path} lists ${name}`)
    }
  })

  it('marks the public operations as needing no signature, and only those', () => {
    const open = operationsOf(document).filter(({ operation }) => Array.isArray(operation.security) && operation.security.length === 0)
    assert.deepEqual(open.map(({ operation }) => operation.operationId).sort(), [...PUBLIC_OPERATIONS].sort())
  })

  it('shares the problem document, the pages and each resource\'s item under components', () => {
    const schemas = Object.keys(document.components.schemas)
    for (const name of ['Problem', 'User', 'UserPage', 'Label', 'LabelPage', 'Player', 'PlayerPage', 'PublishingRule', 'Asset', 'AssetPage', 'Syndication', 'Report']) {
      assert.ok(schemas.includes(name), `${name} is not among ${schemas.join(', ')}`)
    }
    assert.deepEqual(document.paths['/v2/labels'].get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/LabelPage' })
    assert.deepEqual(document.components.schemas.Asset.properties.labels.items, { $ref: '#/components/schemas/Label' })
    assert.equal(document.components.responses.NotFound.content['application/json'].schema.$ref, '#/components/schemas/Problem')
  })

  it('gives each operation its own operationId, and stays far smaller than when every schema was inline', () => {
    const ids = operationsOf(document).map(({ operation }) => operation.operationId as string)
    assert.equal(new Set(ids).size, ids.length)
    assert.ok(ids.length >= 70, `only ${ids.length} operations`)
    // Shared schemas by reference keep each operation's share small (inline, each answer repeated its item).
    assert.ok(text.length < ids.length * 3_000, `${text.length} bytes for ${ids.length} operations`)
  })
})
