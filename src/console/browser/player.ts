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
 * A media element playing the asset's HLS master playlist: a video element, or an audio one for audio
 * assets (no black picture box). hls.js first, where Media Source Extensions exist (a browser that also
 * claims native HLS would otherwise lose hls.js's error events), without its worker (the page's policy
 * names no worker source); else the browser's own HLS. An asset that failed shows why.
 */
export function player (asset: Asset): { element: HTMLElement, destroy: () => void } {
  const url = playlistOf(asset)
  if (asset.status === 'error') {
    return { element: h('div', { class: 'player none failed', role: 'alert' }, h('strong', {}, 'Processing failed. '), asset.processing_error ?? 'The server gave no reason.'), destroy: () => {} }
  }
  if (url === undefined) return { element: h('div', { class: 'player none' }, 'Nothing to play yet.'), destroy: () => {} }
  const audio = asset.asset_type === 'audio'
  const media = audio
    ? h('audio', { id: 'player', controls: true, preload: 'metadata', 'aria-label': `Play ${asset.name}` })
    : h('video', { id: 'player', controls: true, playsinline: true, preload: 'metadata', 'aria-label': `Play ${asset.name}` })
  if (media instanceof HTMLVideoElement && asset.preview_image_url !== null && asset.preview_image_url !== undefined) media.poster = asset.preview_image_url
  const element = h('div', { class: audio ? 'player audio' : 'player' }, media)
  if (Hls.isSupported()) {
    const hls = new Hls({ enableWorker: false })
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (data.fatal) showError(`The ${audio ? 'audio' : 'video'} could not play: ${data.details}${data.response?.code === undefined ? '' : ` (HTTP ${data.response.code})`}.`)
    })
    hls.loadSource(url)
    hls.attachMedia(media)
    return { element, destroy: () => { hls.destroy() } }
  }
  media.src = url
  return { element, destroy: () => { media.removeAttribute('src') } }
}
