// The TypeScript client's types, generated from the server's own TypeBox schemas and vocabularies into
// packages/client/src/generated/ (checked in, so the package builds without the server).
//   node --import tsx scripts/client-types.ts          writes the files (the package's build runs it)
//   node --import tsx scripts/client-types.ts --check  fails when a file differs from what the schemas give
// test/client/generated-types.test.ts runs the check in the suite.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { compile, type JSONSchema } from 'json-schema-to-typescript'
import { ClassicReportQuery, EventBatchFields, ReportAnswer, ReportQuery } from '../src/analytics/http/analytics-schemas.ts'
import { DIMENSIONS, EVENT_NAMES, METRICS, TIME_SEGMENTS } from '../src/analytics/model.ts'
import { RemainingCredits } from '../src/credits/credits-routes.ts'
import { ERRORS } from '../src/errors/catalogue.ts'
import { Problem } from '../src/http/schemas.ts'
import { QueueStatus, Reindexed, ReindexBody } from '../src/indexer/indexer-schemas.ts'
import { DEFAULT_INCLUDES } from '../src/query/include.ts'
import { DEFAULT_ORDER_FIELDS } from '../src/query/orderby.ts'
import { ASSET_STATUSES, ASSET_TYPES } from '../src/resources/assets/assets-kinds.ts'
import { ASSET_FIELDS } from '../src/resources/assets/assets-query.ts'
import * as assets from '../src/resources/assets/assets-schemas.ts'
import * as uploads from '../src/media/uploads/uploads-schemas.ts'
import { MetadataPatchBody, MetadataSchema } from '../src/resources/kit/metadata.ts'
import * as labels from '../src/resources/labels/labels-schemas.ts'
import * as players from '../src/resources/players/players-schemas.ts'
import * as rules from '../src/resources/publishing-rules/publishing-rules-schemas.ts'
import * as syndications from '../src/resources/syndications/syndications-schemas.ts'
import * as users from '../src/resources/users/users-schemas.ts'
import { Account } from '../src/resources/accounts/accounts-schemas.ts'

export const GENERATED_DIR = join(import.meta.dirname, '..', 'packages', 'client', 'src', 'generated')

/** A type from a schema, or a union of string literals from a vocabulary. */
type Entry = { name: string, schema: object } | { name: string, values: readonly string[], doc: string }

/** Query parameters every list takes, which the client sets itself. */
const PLUMBING = new Set(['api_key', 'expires', 'signature', 'limit', 'page_token', 'paging_token'])

/** A query string's schema without the signing and paging parameters: the filters a caller chooses. */
function filtersOf (query: { properties: Record<string, unknown> }): object {
  return { type: 'object', properties: Object.fromEntries(Object.entries(query.properties).filter(([name]) => !PLUMBING.has(name))) }
}

/** Every generated file and the types it holds, in order. A type named here is referred to by name elsewhere. */
const FILES: Record<string, Entry[]> = {
  'metadata.ts': [
    { name: 'Metadata', schema: MetadataSchema },
    { name: 'MetadataPatch', schema: MetadataPatchBody }
  ],
  'labels.ts': [
    { name: 'Label', schema: labels.Label },
    { name: 'LabelCreateParams', schema: labels.CreateLabelBody },
    { name: 'LabelUpdateParams', schema: labels.UpdateLabelBody },
    { name: 'LabelListFilters', schema: filtersOf(labels.LabelsQuery) }
  ],
  'players.ts': [
    { name: 'Player', schema: players.Player },
    { name: 'PlayerCreateParams', schema: players.CreatePlayerBody },
    { name: 'PlayerUpdateParams', schema: players.UpdatePlayerBody }
  ],
  'publishing-rules.ts': [
    { name: 'PublishingRule', schema: rules.PublishingRule },
    { name: 'PublishingRuleCreateParams', schema: rules.CreateRuleBody },
    { name: 'PublishingRuleUpdateParams', schema: rules.UpdateRuleBody }
  ],
  'assets.ts': [
    { name: 'AssetType', values: ASSET_TYPES, doc: 'The kinds of asset.' },
    { name: 'AssetStatus', values: ASSET_STATUSES, doc: 'The states of an asset.' },
    { name: 'Asset', schema: assets.Asset },
    { name: 'ProcessingRendition', schema: assets.ProcessingRendition },
    { name: 'Processing', schema: assets.Processing },
    { name: 'AssetCreateParams', schema: assets.CreateAssetBody },
    { name: 'AssetUpdateParams', schema: assets.UpdateAssetBody },
    { name: 'AssetReplaceParams', schema: assets.ReplaceAssetBody },
    { name: 'AssetLabels', schema: assets.LabelList },
    { name: 'DeletedAsset', schema: assets.DeletedAsset },
    { name: 'AssetListFilters', schema: filtersOf(assets.AssetsQuery) }
  ],
  'uploads.ts': [
    { name: 'UploadStatusParams', schema: uploads.UploadStatusBody },
    { name: 'UploadStatus', schema: uploads.UploadStatus },
    { name: 'ReplacementParams', schema: uploads.ReplacementBody },
    { name: 'Replacement', schema: uploads.Replacement },
    { name: 'ProcessParams', schema: uploads.ProcessBody },
    { name: 'ProcessAnswer', schema: uploads.ProcessAnswer },
    { name: 'SourceFileInfo', schema: uploads.SourceFileInfo },
    { name: 'ProcessingProfile', schema: uploads.ProcessingProfile },
    { name: 'ProcessingProfiles', schema: uploads.ProcessingProfiles },
    { name: 'ChunkReceipt', schema: uploads.ChunkReceipt }
  ],
  'where.ts': [
    { name: 'AssetWhereField', values: Object.keys(ASSET_FIELDS), doc: 'The fields of the asset `where` language that compare with a value (besides `metadata.<name>`).' },
    { name: 'AssetOrderField', values: DEFAULT_ORDER_FIELDS, doc: 'What asset lists sort by (`orderby`), followed by ` ascending` or ` descending`.' },
    { name: 'AssetInclude', values: DEFAULT_INCLUDES, doc: 'What asset answers can embed (`include`).' }
  ],
  'syndications.ts': [
    { name: 'Syndication', schema: syndications.Syndication },
    { name: 'SyndicationCreateParams', schema: syndications.CreateSyndicationBody },
    { name: 'SyndicationUpdateParams', schema: syndications.UpdateSyndicationBody },
    { name: 'AccessKey', schema: syndications.AccessKey },
    { name: 'AccessKeys', schema: syndications.AccessKeyList }
  ],
  'users.ts': [
    { name: 'UserRole', values: (users.Role as { enum: readonly string[] }).enum, doc: 'The five roles (docs/api.md, "Roles").' },
    { name: 'User', schema: users.User },
    { name: 'UserWithSecret', schema: users.UserWithSecret },
    { name: 'Me', schema: users.Me },
    { name: 'Account', schema: Account },
    { name: 'UserCreateParams', schema: users.CreateUserBody },
    { name: 'UserUpdateParams', schema: users.UpdateUserBody }
  ],
  'credits.ts': [
    { name: 'RemainingCredits', schema: RemainingCredits }
  ],
  'analytics.ts': [
    { name: 'Metric', values: METRICS, doc: 'Report metrics (docs/analytics.md).' },
    { name: 'Dimension', values: DIMENSIONS, doc: 'Report dimensions, at most 3 per report.' },
    { name: 'TimeSegment', values: TIME_SEGMENTS, doc: 'How a report splits its time range.' },
    { name: 'EventName', values: EVENT_NAMES, doc: 'The events a player reports.' },
    { name: 'ReportAnswer', schema: ReportAnswer },
    { name: 'ReportQuery', schema: filtersOf(ReportQuery) },
    { name: 'ClassicReportQuery', schema: filtersOf(ClassicReportQuery) },
    { name: 'EventBatch', schema: EventBatchFields }
  ],
  'indexing.ts': [
    { name: 'ReindexParams', schema: ReindexBody },
    { name: 'Reindexed', schema: Reindexed },
    { name: 'QueueStatus', schema: QueueStatus }
  ],
  'errors.ts': [
    { name: 'ErrorCode', values: Object.keys(ERRORS), doc: 'The server\'s stable error codes (its error catalogue).' },
    { name: 'ProblemDocument', schema: Problem }
  ]
}

const BANNER = '// Generated by scripts/client-types.ts from the server\'s schemas: do not edit; run `npm run client:types`.\n'

/** Named schemas by their JSON, so a schema used inside another is written as a reference to its name. */
function namedSchemas (): Map<string, { name: string, file: string }> {
  const named = new Map<string, { name: string, file: string }>()
  for (const [file, entries] of Object.entries(FILES)) {
    for (const entry of entries) if ('schema' in entry) named.set(JSON.stringify(entry.schema), { name: entry.name, file })
  }
  return named
}

/** Replaces every nested schema that has a name of its own with a reference to it (`tsType`); notes what it refers to. */
function referenced (schema: unknown, self: string, named: Map<string, { name: string, file: string }>, uses: Set<string>): unknown {
  if (typeof schema !== 'object' || schema === null) return schema
  const json = JSON.stringify(schema)
  const match = named.get(json)
  if (match !== undefined && json !== self) {
    uses.add(`${match.file}:${match.name}`)
    return { tsType: match.name, ...(typeof (schema as { description?: unknown }).description === 'string' ? { description: (schema as { description: string }).description } : {}) }
  }
  if (Array.isArray(schema)) return schema.map((item) => referenced(item, self, named, uses))
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, referenced(value, self, named, uses)]))
}

/** Drops the comment json-schema-to-typescript writes over every record type (it names no definition here). */
function withoutNoise (text: string): string {
  return text.replace(/\n *\/\*\*\n *\* This interface was referenced by [^]*?\*\/(?=\n)/g, '')
}

/** The text of every generated file, by file name. */
export async function renderClientTypes (): Promise<Map<string, string>> {
  const named = namedSchemas()
  const files = new Map<string, string>()
  for (const [file, entries] of Object.entries(FILES)) {
    const uses = new Set<string>()
    const parts: string[] = []
    for (const entry of entries) {
      if ('values' in entry) {
        parts.push(`/** ${entry.doc} */\nexport type ${entry.name} = ${entry.values.map((value) => `'${value}'`).join(' | ')}\n`)
        continue
      }
      const self = JSON.stringify(entry.schema)
      const schema = referenced(JSON.parse(self), self, named, uses) as JSONSchema
      parts.push(withoutNoise(await compile(schema, entry.name, {
        bannerComment: '',
        additionalProperties: false,
        declareExternallyReferenced: false,
        ignoreMinAndMaxItems: true,
        style: { semi: false, singleQuote: true, trailingComma: 'none', printWidth: 120 }
      })))
    }
    const imports = new Map<string, string[]>()
    for (const use of uses) {
      const [from, name] = use.split(':') as [string, string]
      if (from !== file) imports.set(from, [...imports.get(from) ?? [], name])
    }
    const importLines = [...imports].sort(([a], [b]) => a.localeCompare(b))
      .map(([from, names]) => `import type { ${names.sort().join(', ')} } from './${from}'\n`).join('')
    files.set(file, BANNER + (importLines === '' ? '' : `${importLines}\n`) + parts.join('\n'))
  }
  return files
}

if (process.argv[1] === import.meta.filename) {
  const check = process.argv.includes('--check')
  let stale = 0
  for (const [name, text] of await renderClientTypes()) {
    const path = join(GENERATED_DIR, name)
    if (!check) writeFileSync(path, text)
    else if (readFileSync(path, 'utf8') !== text) { stale++; console.error(`${path} is out of date: run npm run client:types`) }
  }
  process.exit(stale === 0 ? 0 : 1)
}
