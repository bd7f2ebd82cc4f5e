/** The label tree of an account. Migration 0002. */
export interface LabelsTable {
  id: string
  account_id: string
  name: string
  /** Null for a top-level label. */
  parent_id: string | null
  /** `/` plus the ancestor names and the label's own name joined by `/` (kept in step on rename and move). */
  full_name: string
  created_at: string
  updated_at: string
}
