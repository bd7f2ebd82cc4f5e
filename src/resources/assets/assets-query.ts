import type { ExpressionBuilder } from 'kysely'
import { indexedWhereHooks } from '../../indexer/text-search.ts'
import type { KeyColumn, KeyValue } from '../../paging/index.ts'
import {
  compileWhere, parseInclude, parseOrderBy, parseWhere,
  type CompareOp, type DefaultInclude, type DefaultOrderField, type FieldMap, type WhereFilter, type WhereHooks
} from '../../query/index.ts'
import type { Database } from '../../db/index.ts'
import type { SearchStore } from '../../search/index.ts'
import { ASSET_STATUSES, ASSET_TYPES } from './assets-kinds.ts'
import type { AssetRow } from './assets-repository.ts'

/** The `where` fields of assets (docs/resources.md, "Assets"); `labels INCLUDES` and `metadata.<name>` come as hooks. */
export const ASSET_FIELDS: FieldMap = {
  embed_code: { column: 'assets.id', type: 'text' },
  external_id: { column: 'assets.external_id', type: 'text' },
  name: { column: 'assets.name', type: 'word' },
  description: { column: 'assets.description', type: 'word' },
  // What the asset's caption tracks say; answered from the index only (its cues), never in SQL.
  transcript: { column: 'assets.id', type: 'word' },
  asset_type: { column: 'assets.asset_type', type: 'enum', values: ASSET_TYPES },
  status: { column: 'assets.status', type: 'enum', values: ASSET_STATUSES },
  duration: { column: 'assets.duration', type: 'number' },
  original_file_name: { column: 'assets.original_file_name', type: 'text' },
  player_id: { column: 'assets.player_id', type: 'text' },
  publishing_rule_id: { column: 'assets.publishing_rule_id', type: 'text' },
  created_at: { column: 'assets.created_at', type: 'date' },
  updated_at: { column: 'assets.updated_at', type: 'date' },
  // Assets with no flight time always match date queries, as in the API family.
  'time_restrictions.start_date': { column: 'assets.restriction_start', type: 'date', nullMatches: true },
  'time_restrictions.end_date': { column: 'assets.restriction_end', type: 'date', nullMatches: true }
}

/**
 * The SQL predicates of one account's assets: metadata, and the exact `labels INCLUDES` match that
 * refines the search index's hits (`indexedWhereHooks` answers the text predicates from the index).
 * `labels INCLUDES 'x'` matches a label named x (case-insensitively) or whose full name is x.
 */
export function assetWhereHooks (accountId: string): WhereHooks {
  return {
    labelsIncludes: (eb, name) => eb.exists(
      eb.selectFrom('asset_labels').innerJoin('labels', 'labels.id', 'asset_labels.label_id').select('asset_labels.asset_id')
        .where('asset_labels.account_id', '=', accountId)
        .whereRef('asset_labels.asset_id', '=', 'assets.id')
        .where((inner: ExpressionBuilder<any, any>) => inner.or([
          inner(inner.fn('lower', [inner.ref('labels.name')]), '=', inner.fn('lower', [inner.val(name)])),
          inner('labels.full_name', '=', name)
        ]))
    ),
    metadata: (eb, key, op, value) => {
      const entry = (compare: Exclude<CompareOp, '!='>): ReturnType<typeof eb.exists> => eb.exists(
        eb.selectFrom('asset_metadata').select('asset_metadata.asset_id')
          .where('asset_metadata.account_id', '=', accountId)
          .whereRef('asset_metadata.asset_id', '=', 'assets.id')
          .where('asset_metadata.name', '=', key)
          .where('asset_metadata.value', compare, value)
      )
      // "Not equal" means no entry with that value, so assets without the name match too.
      return op === '!=' ? eb.not(entry('=')) : entry(op)
    }
  }
}

export interface AssetListParams {
  filter: WhereFilter | undefined
  order: readonly KeyColumn[]
  orderField: DefaultOrderField
  includes: ReadonlySet<DefaultInclude>
}

/** Parses `where`, `orderby` and `include` of an asset list; every error is a 400 naming the parameter. */
export async function assetListParams (ctx: { search: SearchStore, database: Pick<Database, 'dialect'> }, accountId: string, query: { where?: string, orderby?: string, include?: string }): Promise<AssetListParams> {
  const ast = parseWhere(query.where ?? '')
  let filter: WhereFilter | undefined
  if (ast.clauses.length > 0) {
    const base = assetWhereHooks(accountId)
    compileWhere(ast, ASSET_FIELDS, base) // every 400 before any search
    // Text predicates are answered by the search index first, then combined in SQL.
    const hooks = await indexedWhereHooks(ast, ASSET_FIELDS, { store: ctx.search, dialect: ctx.database.dialect, accountId, idColumn: 'assets.id', base })
    filter = compileWhere(ast, ASSET_FIELDS, hooks)
  }
  const orderby = parseOrderBy(query.orderby)
  // The embed code breaks ties in the same direction, so the keyset order is total.
  const order: KeyColumn[] = [
    { column: `assets.${orderby.field}`, direction: orderby.direction },
    { column: 'assets.id', direction: orderby.direction }
  ]
  return { filter, order, orderField: orderby.field, includes: parseInclude(query.include) }
}

/** The keyset position of a row in an ordering by `field` (bigint columns as numbers). */
export function assetPosition (field: DefaultOrderField, row: AssetRow): KeyValue[] {
  const value = field === 'duration' ? Number(row.duration) : row[field]
  return [value, row.id]
}

/** Newest first: feeds and the default list order. */
export const NEWEST_FIRST: readonly KeyColumn[] = [
  { column: 'assets.created_at', direction: 'desc' },
  { column: 'assets.id', direction: 'desc' }
]
