import type { Asset } from 'reelhouse/client'
import { h } from './dom.ts'
import { messageOf } from './format.ts'
import { processingText, progressOf, stillEncoding } from './processing.ts'
import { showError, type Session } from './shell.ts'
import { uploadWithTus } from './tus-upload.ts'

/**
 * Drag-and-drop upload (docs/console.md): a video dropped on the panel, or chosen with its file field,
 * becomes an asset (`audio` for an audio file, else `video`) through a direct upload over tus
 * (tus-upload.ts: pause and resume, and the same file dropped again after a reload continues), and
 * `assets.waitUntilProcessed` shows where processing stands (waiting, processing, playable with the rest of
 * the ladder encoding) until the whole ladder is made.
 */
export function uploadPanel (session: Session, onUploaded: (asset: Asset) => void): HTMLElement {
  const input = h('input', { type: 'file', id: 'upload-file', accept: 'video/*,audio/*', class: 'visually-hidden' })
  const bar = h('progress', { id: 'upload-progress', max: 100, value: 0, hidden: true, 'aria-label': 'Upload progress' })
  const state = h('p', { class: 'status-line', role: 'status', id: 'upload-state' })
  const pause = h('button', { type: 'button', id: 'upload-pause', hidden: true }, 'Pause')
  const zone = h('div', { class: 'drop-zone', id: 'drop-zone' },
    h('p', {}, 'Drop a video or audio file here, or ', h('label', { for: 'upload-file', class: 'button-like' }, 'choose a file'), '.'),
    input, bar, pause, state)
  const start = (file: File | undefined): void => {
    if (file === undefined) return
    void upload(session, file, bar, state, pause).then((asset) => { if (asset !== undefined) onUploaded(asset) })
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
async function upload (session: Session, file: File, bar: HTMLProgressElement, state: HTMLElement, pause: HTMLButtonElement): Promise<Asset | undefined> {
  const { client } = session
  const name = file.name.replace(/\.[^.]+$/, '')
  const link = (asset: Asset, text = asset.name): HTMLElement => h('a', { href: `#/assets/${encodeURIComponent(asset.embed_code)}` }, text)
  bar.hidden = false
  bar.value = 0
  try {
    state.textContent = `Creating ${name}…`
    let paused = false
    const uploaded = await uploadWithTus(session, file, {
      onProgress: (sent, total) => {
        bar.value = Math.round((sent / Math.max(1, total)) * 100)
        if (!paused) state.textContent = `Uploading ${file.name}: ${bar.value} %`
      },
      onResume: () => { state.textContent = `Continuing the upload of ${file.name}…` },
      onControl: (control) => {
        pause.hidden = false
        pause.onclick = () => {
          paused = !paused
          if (paused) control.pause()
          else control.resume()
          pause.textContent = paused ? 'Resume' : 'Pause'
          if (paused) state.textContent = `Paused at ${bar.value} %`
        }
      }
    })
    pause.hidden = true
    state.replaceChildren('Uploaded. ', link(uploaded), ' is processing…')
    const poll = (asset: Asset): void => {
      bar.value = progressOf(asset)
      const text = processingText(asset)
      if (text !== '') state.replaceChildren(link(asset), `: ${text}`)
    }
    let final = await client.assets.waitUntilProcessed(uploaded.embed_code, { interval: 1500, onPoll: poll })
    // Playable once its first rendition is: the bar and the line follow the rest of the ladder to the end.
    while (stillEncoding(final)) {
      poll(final)
      await new Promise((resolve) => setTimeout(resolve, 1500))
      final = await client.assets.get(final.embed_code)
    }
    bar.value = progressOf(final)
    state.replaceChildren(link(final), ` is ${final.status}.`)
    return final
  } catch (error) {
    pause.hidden = true
    state.textContent = `Upload failed: ${messageOf(error)}`
    showError(error)
    return undefined
  }
}
