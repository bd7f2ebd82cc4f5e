import { where, type Asset, type Label, type Page, type Where } from 'reelhouse/client'
import { field, h } from './dom.ts'
import { count, duration } from './format.ts'
import { attempt, mainView, type Session } from './shell.ts'
import { uploadPanel } from './upload-panel.ts'

const PAGE_SIZE = 24

/**
 * The library: the account's assets, newest first, a page at a time (following `next_page`), filtered by
 * a search box (a `where` word match on the name) and a label (`labels INCLUDES`).
 */
export function libraryView (session: Session): void {
  const main = mainView('Library')
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '')
  const search = h('input', { type: 'search', name: 'q', value: params.get('q') ?? '', placeholder: 'Words in the name' })
  const labelSelect = h('select', { name: 'label' }, h('option', { value: '' }, 'All labels'))
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter assets' },
    field('Search names', search), field('Label', labelSelect), h('button', { type: 'submit' }, 'Search'))
  const list = h('ul', { class: 'assets', 'aria-label': 'Assets' })
  const summary = h('p', { class: 'summary', role: 'status' })
  const more = h('button', { type: 'button', class: 'more', hidden: true }, 'Load more')

  main.append(h('div', { class: 'view-head' }, h('h1', {}, 'Library')))
  if (session.can.edit) main.append(uploadPanel(session, (asset) => { list.prepend(assetCard(asset)) }))
  main.append(form, summary, list, more)

  void fillLabels(session, labelSelect, params.get('label') ?? '')
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const next = new URLSearchParams()
    if (search.value.trim() !== '') next.set('q', search.value.trim())
    if (labelSelect.value !== '') next.set('label', labelSelect.value)
    const query = next.toString()
    location.hash = `#/library${query === '' ? '' : `?${query}`}`
  })

  let page: Page<Asset> | undefined
  let shown = 0
  const show = (loaded: Page<Asset>): void => {
    page = loaded
    for (const asset of loaded.items) list.append(assetCard(asset))
    shown += loaded.items.length
    summary.textContent = shown === 0 ? 'No assets match.' : `${count(shown)} asset${shown === 1 ? '' : 's'} shown${loaded.hasNextPage() ? ', more to load' : ''}.`
    more.hidden = !loaded.hasNextPage()
  }
  more.addEventListener('click', () => {
    if (page === undefined) return
    more.disabled = true
    void attempt(async () => { show(await (page as Page<Asset>).getNextPage()) }).finally(() => { more.disabled = false })
  })
  void attempt(async () => {
    const filter = whereOf(params.get('q') ?? '', params.get('label') ?? '')
    show(await session.client.assets.list({ limit: PAGE_SIZE, include: ['labels'], ...(filter === undefined ? {} : { where: filter }) }).firstPage())
  })
}

/** The `where` of the filters: every word of the search must be in the name; the label by its full name. */
function whereOf (search: string, label: string): Where | undefined {
  let filter: Where | undefined
  for (const word of search.split(/\s+/).filter((w) => w !== '')) filter = filter === undefined ? where('name', '=', word) : filter.and('name', '=', word)
  if (label !== '') filter = filter === undefined ? where('labels', 'INCLUDES', label) : filter.and('labels', 'INCLUDES', label)
  return filter
}

async function fillLabels (session: Session, select: HTMLSelectElement, chosen: string): Promise<void> {
  await attempt(async () => {
    const labels: Label[] = []
    for await (const label of session.client.labels.list({ limit: 500 })) {
      labels.push(label)
      if (labels.length >= 1000) break
    }
    labels.sort((a, b) => a.full_name.localeCompare(b.full_name))
    select.append(...labels.map((label) => h('option', { value: label.full_name, selected: label.full_name === chosen }, label.full_name)))
  })
}

function assetCard (asset: Asset): HTMLElement {
  const href = `#/assets/${encodeURIComponent(asset.embed_code)}`
  return h('li', { class: 'asset-card' },
    h('a', { href, class: 'preview-link', tabindex: '-1', 'aria-hidden': 'true' }, preview(asset)),
    h('h2', {}, h('a', { href }, asset.name)),
    h('p', { class: 'facts' }, statusBadge(asset.status), h('span', { class: 'duration', title: 'Duration' }, duration(asset.duration))),
    h('ul', { class: 'labels', 'aria-label': 'Labels' }, ...(asset.labels ?? []).map((label) => h('li', {}, label.name))))
}

export function preview (asset: Asset): HTMLElement {
  if (asset.preview_image_url === null || asset.preview_image_url === undefined) return h('div', { class: 'preview none' }, 'No preview')
  return h('img', { class: 'preview', src: asset.preview_image_url, alt: `Preview of ${asset.name}`, loading: 'lazy' })
}

export function statusBadge (status: Asset['status']): HTMLElement {
  return h('span', { class: `badge status-${status}` }, status)
}
