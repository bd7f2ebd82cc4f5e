/** Syndications and their feeds' settings. Migration 0003. */
export interface SyndicationsTable {
  id: string
  account_id: string
  name: string
  type: string
  include_all_content: number
  /** JSON array of asset types; empty means every type. */
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

/** `include_labels`, in the order the client gave them; a deleted label leaves the list (cascade). */
export interface SyndicationLabelsTable {
  account_id: string
  syndication_id: string
  label_id: string
  position: number
}

export interface SyndicationAccessKeysTable {
  account_id: string
  syndication_id: string
  access_key: string
  created_at: string
}
