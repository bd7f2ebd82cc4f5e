import type { Asset, Label } from 'reelhouse/client'
import { field, h, statusLine } from './dom.ts'
import { duration } from './format.ts'
import { statusBadge } from './badge.ts'
import { metadataSection } from './metadata-section.ts'
import { actionsSection, mediaSection } from './asset-media-section.ts'
import { player, playlistOf } from './player.ts'
import { embedSection, isSigned, signedMaster } from './embed-section.ts'
import { previewSection } from './preview-section.ts'
import { processingText, progressOf, stillEncoding } from './processing.ts'
import { retentionPanel } from './quality-panels.ts'
import { attempt, mainView, type Session } from './shell.ts'

let stopPlayer: (() => void) | undefined
window.addEventListener('hashchange', () => { stopPlayer?.(); stopPlayer = undefined })

/**
 * One asset: its player (or why it failed), its media (stream URLs, renditions, file), its preview, its details
 * (editable for roles that may), its metadata and its labels, and for editors delete and process again.
 */
export function assetView (session: Session, id: string): void {
  const main = mainView('Asset')
  main.append(h('p', {}, h('a', { href: '#/library' }, '← Library')))
  void attempt(async () => {
    const asset = await session.client.assets.get(id, { include: ['labels', 'metadata'] })
    document.title = `${asset.name} · Reelhouse console`
    // `?t=` (a spoken-word search's hit): the player starts at that second.
    const startAt = Number(new URLSearchParams(location.hash.split('?')[1] ?? '').get('t') ?? '0')
    // A signed asset plays in the console with a token the console asks for its own user.
    const signed = await isSigned(session, asset)
    const master = playlistOf(asset)
    const shown = player(asset, { accountCode: session.me.account.code }, Number.isFinite(startAt) && startAt > 0 ? startAt : 0,
      signed && master !== undefined && asset.status === 'live' ? await signedMaster(session, asset, master) : master)
    stopPlayer = shown.destroy
    const media = mediaSection(session, asset)
    main.append(
      h('div', { class: 'view-head' }, h('h1', { id: 'asset-title' }, asset.name), statusBadge(asset.status)),
      h('div', { class: 'asset-layout' },
        h('div', {}, shown.element, processingLine(session, asset, media.refresh), media.element, embedSection(asset, signed), previewSection(session, asset),
          session.can.analytics ? retentionPanel(session, asset.embed_code) : null),
        h('div', {}, details(session, asset), metadataSection(session, asset), labelsSection(session, asset),
          session.can.edit ? actionsSection(session, asset, () => { assetView(session, asset.embed_code) }) : null)))
  })
}

/**
 * Where processing stands, followed until the whole ladder is made (the renditions' states with it,
 * through `refresh`); the page is drawn again when the asset becomes playable and when the ladder is done.
 */
function processingLine (session: Session, asset: Asset, refresh: () => Promise<void>): HTMLElement | null {
  if (asset.status === 'uploading') return h('p', { class: 'processing' }, 'Waiting for its upload to complete.')
  if (asset.status !== 'processing' && !stillEncoding(asset)) return null
  const text = h('span', { id: 'processing-state' }, processingText(asset))
  const bar = h('progress', { max: 100, value: progressOf(asset), 'aria-label': 'Processing progress' })
  const line = h('p', { class: 'processing', role: 'status' }, text, bar)
  const here = (): boolean => location.hash.startsWith(`#/assets/${encodeURIComponent(asset.embed_code)}`)
  void attempt(async () => {
    let polled = asset
    while (here() && (polled.status === 'processing' || stillEncoding(polled))) {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      polled = await session.client.assets.get(asset.embed_code)
      // Playable now: the page is drawn again, with its player, and follows the rest of the ladder there.
      if (asset.status === 'processing' && polled.status !== 'processing') break
      bar.value = progressOf(polled)
      text.textContent = processingText(polled)
      await refresh()
    }
    if (here()) assetView(session, asset.embed_code)
  })
  return line
}

function details (session: Session, asset: Asset): HTMLElement {
  const facts = h('dl', { class: 'facts-list' },
    h('dt', {}, 'Type'), h('dd', {}, asset.asset_type),
    h('dt', {}, 'Duration'), h('dd', {}, duration(asset.duration)),
    h('dt', {}, 'Embed code'), h('dd', {}, h('code', {}, asset.embed_code)),
    h('dt', {}, 'Created'), h('dd', {}, new Date(asset.created_at).toLocaleString()))
  if (!session.can.edit) {
    return h('section', { class: 'card', 'aria-labelledby': 'details-title' }, h('h2', { id: 'details-title' }, 'Details'), facts,
      h('p', { class: 'description' }, asset.description === '' ? 'No description.' : asset.description))
  }
  const name = h('input', { name: 'name', value: asset.name, required: true, maxlength: 255 })
  const description = h('textarea', { name: 'description', rows: 3 }, asset.description)
  const done = statusLine()
  const form = h('form', { class: 'card', 'aria-labelledby': 'details-title' }, h('h2', { id: 'details-title' }, 'Details'), facts,
    field('Name', name), field('Description', description), h('button', { type: 'submit' }, 'Save details'), done)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    done.textContent = 'Saving…'
    void attempt(async () => {
      const saved = await session.client.assets.update(asset.embed_code, { name: name.value, description: description.value })
      document.getElementById('asset-title')?.replaceChildren(saved.name)
      done.textContent = 'Saved.'
    }).then((ok) => { if (!ok) done.textContent = 'Not saved.' })
  })
  return form
}

function labelsSection (session: Session, asset: Asset): HTMLElement {
  const list = h('ul', { class: 'labels', 'aria-label': 'Labels of this asset' })
  const section = h('section', { class: 'card', 'aria-labelledby': 'labels-title' }, h('h2', { id: 'labels-title' }, 'Labels'), list)
  const render = (labels: Label[]): void => {
    list.replaceChildren(...labels.map((label) => h('li', {}, label.full_name, session.can.edit
      ? h('button', { type: 'button', class: 'remove', 'aria-label': `Remove label ${label.full_name}`, onclick: () => { void remove(label) } }, '×')
      : null)))
    if (labels.length === 0) list.append(h('li', { class: 'empty' }, 'No labels.'))
  }
  const remove = async (label: Label): Promise<void> => {
    await attempt(async () => {
      await session.client.assets.labels.remove(asset.embed_code, label.id)
      render(await session.client.assets.labels.list(asset.embed_code))
    })
  }
  render(asset.labels ?? [])
  if (!session.can.edit) return section

  const path = h('input', { name: 'label', placeholder: '/Sports/Hockey', required: true })
  const done = statusLine()
  const form = h('form', { class: 'inline' }, field('Add a label (full path; created if missing)', path), h('button', { type: 'submit' }, 'Add label'), done)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void attempt(async () => {
      const full = path.value.trim().startsWith('/') ? path.value.trim() : `/${path.value.trim()}`
      const created = await session.client.labels.createByFullPath([full])
      const label = created.at(-1) as Label
      render(await session.client.assets.labels.addOne(asset.embed_code, label.id))
      path.value = ''
      done.textContent = `Added ${label.full_name}.`
    })
  })
  section.append(form)
  return section
}
