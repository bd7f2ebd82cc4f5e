import type { Asset, AssetOrderField } from 'reelhouse/client'
import { h } from './dom.ts'
import { duration } from './format.ts'
import { statusBadge } from './badge.ts'

/** The columns the API sorts by (`orderby`), so a sorted table pages on in the same order. */
export const SORTABLE = ['name', 'asset_type', 'duration', 'created_at'] as const satisfies readonly AssetOrderField[]
export interface SortState { field: typeof SORTABLE[number], direction: 'ascending' | 'descending' }

const COLUMNS: Array<{ label: string, field?: SortState['field'] }> = [
  { label: 'Name', field: 'name' }, { label: 'Status' }, { label: 'Type', field: 'asset_type' },
  { label: 'Duration', field: 'duration' }, { label: 'Created', field: 'created_at' }, { label: 'Labels' }
]

/**
 * The library as a table: one row per asset, the sortable columns' headings are buttons that sort by
 * that column (again: the other way), through the API's `orderby`, newest first when unsorted.
 */
export function assetTable (sort: SortState | undefined, onSort: (next: SortState | undefined) => void) {
  const body = h('tbody', {})
  const heading = (column: typeof COLUMNS[number]): HTMLElement => {
    if (column.field === undefined) return h('th', { scope: 'col' }, column.label)
    const field = column.field
    const current = sort?.field === field ? sort.direction : undefined
    const next: SortState = { field, direction: current === 'ascending' ? 'descending' : 'ascending' }
    return h('th', { scope: 'col', 'aria-sort': current ?? 'none' },
      h('button', { type: 'button', class: 'sort', onclick: () => { onSort(next) } }, column.label, h('span', { 'aria-hidden': 'true' }, current === 'ascending' ? ' ▲' : current === 'descending' ? ' ▼' : '')))
  }
  const element = h('div', { class: 'table-wrap' }, h('table', { class: 'asset-table', 'aria-label': 'Assets' },
    h('thead', {}, h('tr', {}, ...COLUMNS.map(heading))), body))
  const row = (asset: Asset): HTMLElement => h('tr', {},
    h('th', { scope: 'row' }, h('a', { href: `#/assets/${encodeURIComponent(asset.embed_code)}` }, asset.name)),
    h('td', {}, statusBadge(asset.status)),
    h('td', {}, asset.asset_type),
    h('td', {}, duration(asset.duration)),
    h('td', {}, h('time', { datetime: asset.created_at }, new Date(asset.created_at).toLocaleDateString())),
    h('td', {}, (asset.labels ?? []).map((label) => label.full_name).join(', ')))
  return {
    element,
    append: (assets: Asset[]) => { body.append(...assets.map(row)) },
    prepend: (asset: Asset) => { body.prepend(row(asset)) }
  }
}
