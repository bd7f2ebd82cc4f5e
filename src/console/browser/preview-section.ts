import type { Asset } from 'reelhouse/client'
import { signedPath } from 'reelhouse/client'
import { field, h, statusLine } from './dom.ts'
import { attempt, type Session } from './shell.ts'

/** A frame `GET generated_preview_images` lists. */
interface Frame { time: number, url: string, width: number, height: number }
/** `GET`/`PUT primary_preview_image`. */
interface Primary { type: string, time: number | null, url: string | null }

const WITH_FRAMES = new Set(['video', 'ad'])

/** What the preview is, in words. */
function chosenText (primary: Primary): string {
  if (primary.type === 'generated') return `The frame at ${primary.time ?? 0} s.`
  if (primary.type === 'uploaded_file') return 'An image you sent.'
  if (primary.type === 'remote_url') return 'An image elsewhere (a remote URL).'
  return primary.url === null ? 'None yet.' : 'The frame processing took.'
}

/**
 * `POST preview_image_files` with the file's raw bytes, signed as they are sent (the client signs JSON
 * bodies only); a refusal is thrown with the server's sentence.
 */
async function sendImage (session: Session, assetId: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  const path = `/v2/assets/${encodeURIComponent(assetId)}/preview_image_files`
  const signed = await signedPath({ ...session.credentials, method: 'POST', path, body: bytes, expires: Math.floor(Date.now() / 1000) + 300 })
  const res = await fetch(location.origin + signed, { method: 'POST', body: new Blob([bytes]), headers: { 'content-type': 'application/octet-stream' } })
  if (!res.ok) {
    const answer = await res.json().catch(() => ({})) as { message?: string }
    throw new Error(answer.message ?? `The image was refused (HTTP ${res.status}).`)
  }
}

/** The file as a `data:` URL, which the page's policy allows for images (it names no `blob:` there). */
async function dataUrl (file: File): Promise<string> {
  return await new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.addEventListener('load', () => { resolve(String(reader.result)) })
    reader.addEventListener('error', () => { reject(reader.error ?? new Error('The file could not be read.')) })
    reader.readAsDataURL(file)
  })
}

/**
 * The asset's preview, for editors of a processed video: the image now, the frames the ladder's decode
 * made (any one becomes the preview), and an image file of one's own (JPEG or PNG, checked whole by the
 * server).
 */
export function previewSection (session: Session, asset: Asset): HTMLElement | null {
  const processed = asset.status === 'live' || asset.status === 'paused'
  if (!session.can.edit || !WITH_FRAMES.has(asset.asset_type) || !processed) return null
  const id = asset.embed_code
  const base = `/v2/assets/${encodeURIComponent(id)}`
  const current = h('img', { class: 'preview-current', alt: 'The current preview', hidden: asset.preview_image_url === null })
  if (asset.preview_image_url !== null && asset.preview_image_url !== undefined) current.src = asset.preview_image_url
  const chosen = h('p', { class: 'preview-chosen', id: 'preview-chosen' }, 'Loading…')
  const frames = h('ul', { class: 'preview-frames', 'aria-label': 'Frames to choose from', 'aria-busy': 'true' })
  const done = statusLine()
  const file = h('input', { type: 'file', name: 'preview-file', accept: 'image/jpeg,image/png' })
  const form = h('form', { class: 'inline preview-upload' }, field('Or send an image (JPEG or PNG, at most 5 MiB)', file), h('button', { type: 'submit' }, 'Use this image'))
  const section = h('section', { class: 'card', 'aria-labelledby': 'preview-title' }, h('h2', { id: 'preview-title' }, 'Preview'),
    h('div', { class: 'preview-now' }, current, chosen), h('h3', {}, 'Choose a frame'), frames, form, done)

  const showChoice = (primary: Primary, src?: string): void => {
    chosen.textContent = chosenText(primary)
    if (src !== undefined) { current.src = src; current.hidden = false }
    for (const button of frames.querySelectorAll('button')) {
      button.setAttribute('aria-pressed', String(primary.type === 'generated' && Number(button.dataset.time) === primary.time))
    }
  }
  const choose = (frame: Frame): void => {
    done.textContent = 'Saving…'
    void attempt(async () => {
      const primary = await session.client.request<Primary>('PUT', `${base}/primary_preview_image`, { body: { type: 'generated', time: frame.time } })
      showChoice(primary, frame.url)
      done.textContent = `Preview saved: the frame at ${frame.time} s.`
    }).then((ok) => { if (!ok) done.textContent = 'Not saved.' })
  }

  void attempt(async () => {
    const [list, primary] = await Promise.all([
      session.client.request<Frame[]>('GET', `${base}/generated_preview_images`),
      session.client.request<Primary>('GET', `${base}/primary_preview_image`)
    ])
    frames.replaceChildren(...list.map((frame) => h('li', {}, h('button', { type: 'button', class: 'frame', 'data-time': frame.time, 'aria-pressed': 'false', onclick: () => { choose(frame) } },
      h('img', { src: frame.url, alt: `Frame at ${frame.time} s`, width: frame.width, height: frame.height, loading: 'lazy' })))))
    if (list.length === 0) frames.append(h('li', { class: 'empty' }, 'No frames yet: they come when the whole ladder is made.'))
    frames.setAttribute('aria-busy', 'false')
    showChoice(primary)
  })

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const picked = file.files?.[0]
    if (picked === undefined) { done.textContent = 'Choose a file first.'; return }
    done.textContent = 'Sending…'
    void attempt(async () => {
      await sendImage(session, id, new Uint8Array(await picked.arrayBuffer()))
      const primary = await session.client.request<Primary>('PUT', `${base}/primary_preview_image`, { body: { type: 'uploaded_file' } })
      showChoice(primary, await dataUrl(picked))
      file.value = ''
      done.textContent = 'Preview saved: the image you sent.'
    }).then((ok) => { if (!ok) done.textContent = 'Not saved.' })
  })
  return section
}
