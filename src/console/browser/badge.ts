import type { Asset } from 'reelhouse/client'
import { h } from './dom.ts'

export function statusBadge (status: Asset['status']): HTMLElement {
  return h('span', { class: `badge status-${status}` }, status)
}
