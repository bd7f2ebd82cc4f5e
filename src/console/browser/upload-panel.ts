import type { Asset } from 'reelhouse/client'
import { h } from './dom.ts'
import { messageOf } from './format.ts'
import { followProcessing } from './processing.ts'
import { showError, type Session } from './shell.ts'

/** About twenty chunks, each between 256 KiB and 8 MiB: the bar moves in steps, and a failed PUT costs little to send again. */
function chunkSizeFor (size: number): number {
  return Math.min(8 * 1024 * 1024, Math.max(256 * 1024, Math.ceil(size / 20)))
}

/**
 * Drag-and-drop upload (docs/console.md): a video dropped on the panel, or chosen with its file field,
 * becomes a `video` asset; its bytes go to the chunk URLs of `uploading_urls` one PUT at a time (a bar
 * shows the bytes sent), `upload_status` closes the upload, then the processing progress shows until the
 * asset is live.
 */
export function uploadPanel (session: Session, onUploaded: (asset: Asset) => void): HTMLElement {
  const input = h('input', { type: 'file', id: 'upload-file', accept: 'video/*,audio/*', class: 'visually-hidden' })
  const bar = h('progress', { id: 'upload-progress', max: 100, value: 0, hidden: true, 'aria-label': 'Upload progress' })
  const state = h('p', { class: 'status-line', role: 'status', id: 'upload-state' })
  const zone = h('div', { class: 'drop-zone', id: 'drop-zone' },
    h('p', {}, 'Drop a video here, or ', h('label', { for: 'upload-file', class: 'button-like' }, 'choose a file'), '.'),
    input, bar, state)
  const start = (file: File | undefined): void => {
    if (file === undefined) return
    void upload(session, file, bar, state).then((asset) => { if (asset !== undefined) onUploaded(asset) })
  }
  input.addEventListener('change', () => { start(input.files?.[0]) })
  zone.addEventListener('dragover', (event) => { event.preventDefault(); zone.classList.add('over') })
  zone.addEventListener('dragleave', () => { zone.classList.remove('over') })
  zone.addEventListener('drop', (event) => {
    event.preventDefault()
    zone.classList.remove('over')
    start(event.dataTransfer?.files[0])
  })
  return h('section', { class: 'card upload', 'aria-labelledby': 'upload-title' }, h('h2', { id: 'upload-title' }, 'Upload'), zone)
}

/** Resolves with the asset once processed, or undefined when the upload failed (its message shown). */
async function upload (session: Session, file: File, bar: HTMLProgressElement, state: HTMLElement): Promise<Asset | undefined> {
  const { client } = session
  bar.hidden = false
  bar.value = 0
  try {
    state.textContent = `Creating ${file.name}…`
    const chunkSize = chunkSizeFor(file.size)
    const asset = await client.assets.create({ asset_type: 'video', name: file.name.replace(/\.[^.]+$/, ''), file_name: file.name, file_size: file.size, chunk_size: chunkSize })
    const urls = await client.request<string[]>('GET', `/v2/assets/${encodeURIComponent(asset.embed_code)}/uploading_urls`)
    let sent = 0
    for (const [index, url] of urls.entries()) {
      const [start, end] = rangeOf(url, index, file.size, chunkSize)
      const response = await fetch(url, { method: 'PUT', body: file.slice(start, end + 1) })
      if (!response.ok) throw new Error(await problemMessage(response))
      sent += end + 1 - start
      bar.value = Math.round((sent / Math.max(1, file.size)) * 100)
      state.textContent = `Uploading ${file.name}: ${bar.value} %`
    }
    await client.request('PUT', `/v2/assets/${encodeURIComponent(asset.embed_code)}/upload_status`, { body: { status: 'uploaded' } })
    state.replaceChildren('Uploaded. ', h('a', { href: `#/assets/${encodeURIComponent(asset.embed_code)}` }, asset.name), ' is processing…')
    const final: Asset = await followProcessing(session, asset.embed_code, (progress) => {
      bar.value = progress
      state.replaceChildren('Processing ', h('a', { href: `#/assets/${encodeURIComponent(asset.embed_code)}` }, asset.name), `: ${progress} %`)
    })
    state.replaceChildren(h('a', { href: `#/assets/${encodeURIComponent(asset.embed_code)}` }, final.name), ` is ${final.status}.`)
    return final
  } catch (error) {
    state.textContent = `Upload failed: ${messageOf(error)}`
    showError(error)
    return undefined
  }
}

/** A chunk URL's byte range (`range=START-END`, inclusive), else the chunk's place in the file. */
function rangeOf (url: string, index: number, size: number, chunkSize: number): [number, number] {
  const range = new URL(url).searchParams.get('range')?.split('-').map(Number)
  if (range !== undefined && range.length === 2 && range.every(Number.isFinite)) return [range[0] as number, range[1] as number]
  return [index * chunkSize, Math.min(size, (index + 1) * chunkSize) - 1]
}

async function problemMessage (response: Response): Promise<string> {
  try {
    const body = await response.json() as { message?: unknown }
    if (typeof body.message === 'string') return body.message
  } catch {}
  return `HTTP ${response.status}`
}
