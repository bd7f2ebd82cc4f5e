import Hls from 'hls.js/light'
import type { Asset } from 'reelhouse/client'
import { h } from './dom.ts'
import { showError } from './shell.ts'

/** The HLS master playlist of an asset, when it has one. */
export function playlistOf (asset: Asset): string | undefined {
  const urls = asset.stream_urls as Record<string, string | null | undefined> | undefined
  return urls?.iphone ?? urls?.ipad ?? undefined
}

/**
 * A video element playing the asset's HLS master playlist. hls.js first, where Media Source Extensions
 * exist (a browser that also claims native HLS would otherwise lose hls.js's error events), without its
 * worker (the page's policy names no worker source); else the browser's own HLS.
 */
export function player (asset: Asset): { element: HTMLElement, destroy: () => void } {
  const url = playlistOf(asset)
  if (url === undefined) return { element: h('div', { class: 'player none' }, 'Nothing to play yet.'), destroy: () => {} }
  const video = h('video', { id: 'player', controls: true, playsinline: true, preload: 'metadata', 'aria-label': `Play ${asset.name}` })
  if (asset.preview_image_url !== null && asset.preview_image_url !== undefined) video.poster = asset.preview_image_url
  if (Hls.isSupported()) {
    const hls = new Hls({ enableWorker: false })
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (data.fatal) showError(`The video could not play: ${data.details}${data.response?.code === undefined ? '' : ` (HTTP ${data.response.code})`}.`)
    })
    hls.loadSource(url)
    hls.attachMedia(video)
    return { element: h('div', { class: 'player' }, video), destroy: () => { hls.destroy() } }
  }
  video.src = url
  return { element: h('div', { class: 'player' }, video), destroy: () => { video.removeAttribute('src') } }
}
