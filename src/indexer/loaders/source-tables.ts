import type { Kysely } from 'kysely'
import type { DB } from '../../db/schema.ts'

/**
 * The columns the document loaders read, as migrations 0002 and 0003 create them. Declared here
 * rather than taken from the resource modules, so the indexer depends on the tables (the contract
 * between the two) and not on how each module types them.
 */
export interface SourceTables {
  assets: {
    id: string
    account_id: string
    asset_type: string
    name: string
    description: string
    status: string
    duration: number | string
    created_at: string
    updated_at: string
  }
  asset_metadata: { account_id: string, asset_id: string, name: string, value: string }
  asset_labels: { account_id: string, asset_id: string, label_id: string }
  labels: { id: string, account_id: string, name: string, parent_id: string | null, full_name: string, created_at: string, updated_at: string }
  players: { id: string, account_id: string, name: string, is_default: number, provider_name: string, created_at: string, updated_at: string }
  syndications: {
    id: string
    account_id: string
    name: string
    type: string
    include_all_content: number
    asset_types: string
    title: string
    description: string
    keywords: string | null
    author: string | null
    category: string | null
    require_access_key: number
    created_at: string
    updated_at: string
  }
}

export function sourceDb (db: Kysely<DB>): Kysely<SourceTables> {
  return db as unknown as Kysely<SourceTables>
}
