import type { Asset } from 'reelhouse/client'
import { h, statusLine } from './dom.ts'
import { attempt, type Session } from './shell.ts'

/** The asset's custom metadata: a list to read, or rows of name and value to edit and save at once (PUT). */
export function metadataSection (session: Session, asset: Asset): HTMLElement {
  const metadata = (asset.metadata ?? {}) as Record<string, string>
  const section = h('section', { class: 'card', 'aria-labelledby': 'metadata-title' }, h('h2', { id: 'metadata-title' }, 'Metadata'))
  if (!session.can.edit) {
    const entries = Object.entries(metadata)
    section.append(entries.length === 0
      ? h('p', {}, 'No metadata.')
      : h('dl', { class: 'facts-list' }, ...entries.flatMap(([name, value]) => [h('dt', {}, name), h('dd', {}, value)])))
    return section
  }
  const rows = h('div', { class: 'metadata-rows' })
  let counter = 0
  const addRow = (name = '', value = ''): void => {
    const n = ++counter
    const row = h('div', { class: 'metadata-row' },
      h('label', { for: `meta-name-${n}`, class: 'visually-hidden' }, `Name ${n}`),
      h('input', { id: `meta-name-${n}`, class: 'meta-name', value: name, placeholder: 'name', maxlength: 128 }),
      h('label', { for: `meta-value-${n}`, class: 'visually-hidden' }, `Value ${n}`),
      h('input', { id: `meta-value-${n}`, class: 'meta-value', value, placeholder: 'value', maxlength: 2048 }))
    row.append(h('button', { type: 'button', class: 'remove', 'aria-label': `Remove row ${n}`, onclick: () => { row.remove() } }, '×'))
    rows.append(row)
  }
  for (const [name, value] of Object.entries(metadata)) addRow(name, value)
  const done = statusLine()
  const form = h('form', {}, rows,
    h('div', { class: 'actions' }, h('button', { type: 'button', class: 'secondary', onclick: () => { addRow() } }, 'Add field'), h('button', { type: 'submit' }, 'Save metadata')), done)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const next: Record<string, string> = {}
    for (const row of rows.querySelectorAll('.metadata-row')) {
      const name = (row.querySelector('.meta-name') as HTMLInputElement).value.trim()
      if (name !== '') next[name] = (row.querySelector('.meta-value') as HTMLInputElement).value
    }
    void attempt(async () => {
      await session.client.assets.metadata.replace(asset.embed_code, next)
      done.textContent = 'Metadata saved.'
    })
  })
  section.append(form)
  return section
}
