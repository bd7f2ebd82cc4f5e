import type { LabelRow } from './labels-repository.ts'
import type { ApiLabel } from './labels-schemas.ts'

/** The one mapping from a labels row to its API shape: `{id, name, parent_id, full_name}`. */
export function toApiLabel (row: Pick<LabelRow, 'id' | 'name' | 'parent_id' | 'full_name'>): ApiLabel {
  return { id: row.id, name: row.name, parent_id: row.parent_id, full_name: row.full_name }
}
