import type { Asset, SourceFileInfo } from 'reelhouse/client'
import { h, statusLine } from './dom.ts'
import { count, duration } from './format.ts'
import { attempt, type Session } from './shell.ts'

/** One rendition as `GET /v2/assets/:id/streams` lists it. */
interface Stream { name: string, kind: string, state: string, width: number | null, height: number | null, bandwidth: number | null }

const UPLOADED = new Set(['video', 'audio', 'ad'])

/**
 * The asset's media: where it streams from (each `stream_urls` entry, to copy), its renditions with the
 * state of each (`streams`: pending, processing, ready, failed), and the uploaded file as the probe saw it
 * (`source_file_info`). Renditions and file information exist for uploaded types only. `refresh` reads
 * the renditions again (the page calls it while processing goes on).
 */
export function mediaSection (session: Session, asset: Asset): { element: HTMLElement, refresh: () => Promise<void> } {
  const section = h('section', { class: 'card', 'aria-labelledby': 'media-title' }, h('h2', { id: 'media-title' }, 'Media'))
  const urls = Object.entries((asset.stream_urls ?? {}) as Record<string, string | null>).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
  section.append(h('h3', {}, 'Stream URLs'), urls.length === 0
    ? h('p', { class: 'empty' }, 'None yet.')
    : h('dl', { class: 'facts-list urls' }, ...urls.flatMap(([key, url]) => [h('dt', {}, key), h('dd', {}, h('code', {}, url))])))
  if (!UPLOADED.has(asset.asset_type)) return { element: section, refresh: async () => {} }

  const renditions = h('div', { class: 'renditions', 'aria-busy': 'true' }, h('p', { class: 'loading' }, 'Loading…'))
  const file = h('div', { class: 'file-info', 'aria-busy': 'true' }, h('p', { class: 'loading' }, 'Loading…'))
  section.append(h('h3', {}, 'Renditions'), renditions, h('h3', {}, 'File'), file)
  const refresh = async (): Promise<void> => {
    const { items } = await session.client.request<{ items: Stream[] }>('GET', `/v2/assets/${encodeURIComponent(asset.embed_code)}/streams`)
    renditions.replaceChildren(items.length === 0
      ? h('p', { class: 'empty' }, asset.status === 'uploading' ? 'None until the upload completes.' : 'None yet.')
      : h('table', { class: 'renditions-table' },
        h('thead', {}, h('tr', {}, ...['Rendition', 'State', 'Size', 'Bit rate'].map((text) => h('th', { scope: 'col' }, text)))),
        h('tbody', {}, ...items.map((stream) => h('tr', { 'data-state': stream.state },
          h('th', { scope: 'row' }, stream.name),
          h('td', {}, h('span', { class: `badge state-${stream.state}` }, stream.state)),
          h('td', {}, stream.width === null || stream.height === null ? '—' : `${stream.width}×${stream.height}`),
          h('td', {}, stream.bandwidth === null ? '—' : `${count(Math.round(stream.bandwidth / 1000))} kbit/s`))))))
    renditions.setAttribute('aria-busy', 'false')
  }
  void attempt(refresh)
  void attempt(async () => {
    const info: SourceFileInfo & Record<string, unknown> = await session.client.assets.uploads.sourceFileInfo(asset.embed_code)
    const probed = info as { container?: unknown, duration?: unknown }
    file.replaceChildren(h('dl', { class: 'facts-list' },
      h('dt', {}, 'Name'), h('dd', {}, info.original_file_name ?? '—'),
      h('dt', {}, 'Size'), h('dd', {}, info.file_size === null ? '—' : `${count(info.file_size)} bytes`),
      typeof probed.container === 'string' ? h('dt', {}, 'Container') : null,
      typeof probed.container === 'string' ? h('dd', {}, probed.container) : null,
      typeof probed.duration === 'number' ? h('dt', {}, 'Length') : null,
      typeof probed.duration === 'number' ? h('dd', {}, duration(probed.duration)) : null,
      h('dt', {}, 'Original'), h('dd', {}, info.source_file_url === null ? 'Not stored yet.' : h('a', { href: info.source_file_url }, 'Download'))))
    file.setAttribute('aria-busy', 'false')
  })
  return { element: section, refresh }
}

/**
 * What an editor may do to the asset as a whole: process a failed upload again, and delete the asset
 * (asked once more on the page: the second button deletes).
 */
export function actionsSection (session: Session, asset: Asset, reload: () => void): HTMLElement {
  const done = statusLine()
  const section = h('section', { class: 'card actions-card', 'aria-labelledby': 'actions-title' }, h('h2', { id: 'actions-title' }, 'Actions'))
  const buttons = h('div', { class: 'actions' })
  if (asset.status === 'error' && UPLOADED.has(asset.asset_type)) {
    const again = h('button', { type: 'button', class: 'secondary' }, 'Process again')
    again.addEventListener('click', () => {
      again.disabled = true
      done.textContent = 'Asking to process it again…'
      void attempt(async () => {
        await session.client.assets.uploads.process(asset.embed_code)
        reload()
      }).then((ok) => { if (!ok) { again.disabled = false; done.textContent = '' } })
    })
    buttons.append(again)
  }
  const remove = h('button', { type: 'button', class: 'danger' }, 'Delete asset')
  const confirm = h('div', { class: 'confirm', hidden: true, role: 'group', 'aria-label': 'Confirm deletion' },
    h('p', {}, `Delete ${asset.name} and its media for good?`))
  const yes = h('button', { type: 'button', class: 'danger' }, 'Delete for good')
  const no = h('button', { type: 'button', class: 'secondary' }, 'Keep it')
  confirm.append(h('div', { class: 'actions' }, yes, no))
  remove.addEventListener('click', () => { confirm.hidden = false; remove.hidden = true; no.focus() })
  no.addEventListener('click', () => { confirm.hidden = true; remove.hidden = false; remove.focus() })
  yes.addEventListener('click', () => {
    yes.disabled = true
    void attempt(async () => {
      await session.client.assets.delete(asset.embed_code)
      location.hash = '#/library'
    }).then((ok) => { if (!ok) yes.disabled = false })
  })
  buttons.append(remove)
  section.append(buttons, confirm, done)
  return section
}
