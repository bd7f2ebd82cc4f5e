import { where, type Asset, type AssetOrderBy, type Label, type Page, type Where } from 'reelhouse/client'
import { assetTable, SORTABLE, type SortState } from './asset-table.ts'
import { statusBadge } from './badge.ts'
import { field, h } from './dom.ts'
import { count, duration } from './format.ts'
import { attempt, mainView, type Session } from './shell.ts'
import { spokenSearch } from './spoken-search.ts'
import { uploadPanel } from './upload-panel.ts'

const PAGE_SIZE = 24

/**
 * The library: the account's assets, newest first (or as the table is sorted), a page at a time
 * (following `next_page`), filtered by a search box (a `where` word match on the name) and a label
 * (`labels INCLUDES`), as cards or as a table. A second search finds what is said in the videos (their
 * captions) and opens the player at that moment. An account with no asset yet is told how to add one.
 */
export function libraryView (session: Session): void {
  const main = mainView('Library')
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '')
  const asTable = params.get('view') === 'table'
  const sort = sortOf(params.get('sort'))
  const search = h('input', { type: 'search', name: 'q', value: params.get('q') ?? '', placeholder: 'Words in the name' })
  const labelSelect = h('select', { name: 'label' }, h('option', { value: '' }, 'All labels'))
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter assets' },
    field('Search names', search), field('Label', labelSelect), h('button', { type: 'submit' }, 'Search'))
  const list = h('ul', { class: 'assets', 'aria-label': 'Assets', hidden: asTable })
  const table = assetTable(sort, (next) => { go({ sort: next === undefined ? undefined : `${next.field} ${next.direction}` }) })
  table.element.hidden = !asTable
  const summary = h('p', { class: 'summary', role: 'status' })
  const firstRun = h('section', { class: 'card first-run', hidden: true, 'aria-labelledby': 'first-run-title' })
  const more = h('button', { type: 'button', class: 'more', hidden: true }, 'Load more')
  const filtered = (params.get('q') ?? '') !== '' || (params.get('label') ?? '') !== ''

  /** The address with some of its parameters changed: the view, the filters and the sort live there. */
  const go = (changes: Record<string, string | undefined>): void => {
    const next = new URLSearchParams(params)
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === '') next.delete(key)
      else next.set(key, value)
    }
    const query = next.toString()
    location.hash = `#/library${query === '' ? '' : `?${query}`}`
  }
  const viewSwitch = h('div', { class: 'view-switch', role: 'group', 'aria-label': 'Show assets as' },
    h('button', { type: 'button', class: 'secondary', 'aria-pressed': String(!asTable), onclick: () => { go({ view: undefined }) } }, 'Cards'),
    h('button', { type: 'button', class: 'secondary', 'aria-pressed': String(asTable), onclick: () => { go({ view: 'table' }) } }, 'Table'))

  main.append(h('div', { class: 'view-head' }, h('h1', {}, 'Library'), viewSwitch), firstRun)
  if (session.can.edit) {
    main.append(uploadPanel(session, (asset) => {
      list.prepend(assetCard(asset))
      table.prepend(asset)
      shown += 1
      firstRun.hidden = true
      form.hidden = false
      summarise()
    }))
  }
  main.append(form, spokenSearch(session, params.get('said') ?? '', (said) => { go({ said }) }), summary, list, table.element, more)

  void fillLabels(session, labelSelect, params.get('label') ?? '')
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    go({ q: search.value.trim(), label: labelSelect.value })
  })

  let page: Page<Asset> | undefined
  // Counted as cards are added, from the list itself: an upload's card counts too.
  let shown = 0
  const summarise = (): void => {
    const further = page?.hasNextPage() === true
    summary.textContent = shown === 0 ? (filtered ? 'No assets match.' : '') : `${count(shown)} asset${shown === 1 ? '' : 's'} shown${further ? ', more to load' : ''}.`
  }
  const show = (loaded: Page<Asset>): void => {
    page = loaded
    for (const asset of loaded.items) list.append(assetCard(asset))
    table.append(loaded.items)
    shown = list.children.length
    summarise()
    more.hidden = !loaded.hasNextPage()
    if (shown === 0 && !filtered) {
      showFirstRun(session, firstRun)
      form.hidden = true
    }
  }
  more.addEventListener('click', () => {
    if (page === undefined) return
    more.disabled = true
    void attempt(async () => { show(await (page as Page<Asset>).getNextPage()) }).finally(() => { more.disabled = false })
  })
  void attempt(async () => {
    const filter = whereOf(params.get('q') ?? '', params.get('label') ?? '')
    const orderby: AssetOrderBy | undefined = sort === undefined ? undefined : `${sort.field} ${sort.direction}`
    show(await session.client.assets.list({ limit: PAGE_SIZE, include: ['labels'], ...(filter === undefined ? {} : { where: filter }), ...(orderby === undefined ? {} : { orderby }) }).firstPage())
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
    h('ul', { class: 'labels', 'aria-label': 'Labels' }, ...(asset.labels ?? []).map((label) => h('li', {}, label.full_name))))
}

/** `?sort=name ascending` from the address, when it names a field the API sorts by. */
function sortOf (text: string | null): SortState | undefined {
  const [field, direction] = (text ?? '').split(' ')
  if (field === undefined || !(SORTABLE as readonly string[]).includes(field)) return undefined
  return { field: field as SortState['field'], direction: direction === 'descending' ? 'descending' : 'ascending' }
}

/** What a new account sees instead of an empty list: the two ways to add its first asset. */
function showFirstRun (session: Session, box: HTMLElement): void {
  box.replaceChildren(h('h2', { id: 'first-run-title' }, 'No assets yet'),
    session.can.edit
      ? h('p', {}, 'Drop a video or audio file on the upload panel below, or choose one there. From a terminal, the CLI uploads a file and follows its processing:')
      : h('p', {}, 'Your role cannot add assets; someone who may upload can, from the console or from a terminal:'),
    h('pre', {}, h('code', {}, 'reelhouse upload clip.mp4 --name "My first clip"')),
    h('p', {}, 'From a clone of the repository: ', h('code', {}, 'npm run -s reelhouse -- upload clip.mp4'), '. docs/cli.md tells how the CLI finds the server and its key.'))
  box.hidden = false
}

export function preview (asset: Asset): HTMLElement {
  if (asset.preview_image_url === null || asset.preview_image_url === undefined) return h('div', { class: 'preview none' }, 'No preview')
  return h('img', { class: 'preview', src: asset.preview_image_url, alt: `Preview of ${asset.name}`, loading: 'lazy' })
}
