import Hls from 'hls.js'
import type { Asset } from 'reelhouse/client'
import { attachBeacon, type Beacon, type BeaconHls } from 'reelhouse/client/beacon'
import { h } from './dom.ts'
import { showError } from './shell.ts'
import { storyboardTimeline } from './storyboard.ts'

/** The HLS master playlist of an asset, when it has one. */
export function playlistOf (asset: Asset): string | undefined {
  const urls = asset.stream_urls as Record<string, string | null | undefined> | undefined
  return urls?.iphone ?? urls?.ipad ?? undefined
}

/** Where the console's player reports what its viewers saw, and as whom. */
export interface PlayerAnalytics { accountCode: string }

/** The player id the console's views are counted under (the `player_id` dimension). */
export const CONSOLE_PLAYER_ID = 'reelhouse-console'

/** The beacon on the console's player: events go to this origin's collection path, which the page's policy allows. */
function beaconOn (media: HTMLMediaElement, asset: Asset, analytics: PlayerAnalytics, hls?: Hls): Beacon {
  const endpoint = `${location.origin}/v2/analytics/events`
  // hls.js types its event names as an enum whose values are the strings the beacon listens for.
  return attachBeacon(media, { endpoint, accountCode: analytics.accountCode, assetId: asset.embed_code, playerId: CONSOLE_PLAYER_ID }, hls as unknown as BeaconHls | undefined)
}

/**
 * A media element playing the asset's HLS master playlist: a video element, or an audio one for audio
 * assets (no black picture box). hls.js first, where Media Source Extensions exist (a browser that also
 * claims native HLS would otherwise lose hls.js's error events), without its worker (the page's policy
 * names no worker source); else the browser's own HLS. `master` is the URL played (a signed asset's
 * carries the console's token). A video with a storyboard gets a timeline that shows its thumbnails on
 * hover. An asset that failed shows why. Given `analytics`,
 * the player beacon reports the view (startup, stalls, renditions, errors, time watched); leaving the
 * page sends what waits. A captions menu lists the stream's subtitle tracks; `startAt` (seconds) is
 * where playback starts.
 */
export function player (asset: Asset, analytics?: PlayerAnalytics, startAt = 0, master = playlistOf(asset)): { element: HTMLElement, destroy: () => void } {
  const url = master
  if (asset.status === 'error') {
    return { element: h('div', { class: 'player none failed', role: 'alert' }, h('strong', {}, 'Processing failed. '), asset.processing_error ?? 'The server gave no reason.'), destroy: () => {} }
  }
  if (url === undefined) return { element: h('div', { class: 'player none' }, 'Nothing to play yet.'), destroy: () => {} }
  const audio = asset.asset_type === 'audio'
  const media = audio
    ? h('audio', { id: 'player', controls: true, preload: 'metadata', 'aria-label': `Play ${asset.name}` })
    : h('video', { id: 'player', controls: true, playsinline: true, preload: 'metadata', 'aria-label': `Play ${asset.name}` })
  if (media instanceof HTMLVideoElement && asset.preview_image_url !== null && asset.preview_image_url !== undefined) media.poster = asset.preview_image_url
  const menu = h('select', { name: 'captions', 'aria-label': 'Captions', hidden: true }, h('option', { value: '-1' }, 'Captions off'))
  const element = h('div', { class: audio ? 'player audio' : 'player' }, media)
  const storyboard = (asset.stream_urls as Record<string, string | null | undefined> | undefined)?.storyboard
  if (media instanceof HTMLVideoElement && typeof storyboard === 'string') {
    element.append(storyboardTimeline(media, storyboard, typeof asset.duration === 'number' && asset.duration > 0 ? asset.duration / 1000 : null))
  }
  element.append(h('div', { class: 'player-controls' }, menu))
  if (startAt > 0) media.addEventListener('loadedmetadata', () => { media.currentTime = startAt }, { once: true })
  if (Hls.isSupported()) {
    const hls = new Hls({ enableWorker: false, startPosition: startAt > 0 ? startAt : -1 })
    captionsMenu(menu, () => hls.subtitleTracks.map((t) => ({ label: t.name, language: t.lang ?? '' })), () => hls.subtitleTrack, (index) => {
      hls.subtitleDisplay = index >= 0
      hls.subtitleTrack = index
    })
    const refresh = (): void => { menu.dispatchEvent(new Event('tracks')) }
    hls.on(Hls.Events.SUBTITLE_TRACKS_UPDATED, refresh)
    hls.on(Hls.Events.SUBTITLE_TRACK_SWITCH, refresh)
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (data.fatal) showError(`The ${audio ? 'audio' : 'video'} could not play: ${data.details}${data.response?.code === undefined ? '' : ` (HTTP ${data.response.code})`}.`)
    })
    const beacon = analytics === undefined ? undefined : beaconOn(media, asset, analytics, hls)
    hls.loadSource(url)
    hls.attachMedia(media)
    return { element, destroy: () => { beacon?.detach(); hls.destroy() } }
  }
  const beacon = analytics === undefined ? undefined : beaconOn(media, asset, analytics)
  // The browser's own HLS: the master's subtitles are the element's text tracks.
  const subtitles = (): TextTrack[] => [...media.textTracks].filter((t) => t.kind === 'subtitles' || t.kind === 'captions')
  captionsMenu(menu, () => subtitles().map((t) => ({ label: t.label, language: t.language })), () => subtitles().findIndex((t) => t.mode === 'showing'), (index) => {
    subtitles().forEach((t, i) => { t.mode = i === index ? 'showing' : 'disabled' })
  })
  media.textTracks.addEventListener('addtrack', () => { menu.dispatchEvent(new Event('tracks')) })
  media.src = url
  return { element, destroy: () => { beacon?.detach(); media.removeAttribute('src') } }
}

/**
 * The captions menu: "Captions off" and one entry per subtitle track, kept in step with the player (a
 * `tracks` event on the menu redraws it); hidden while the stream has no track.
 */
function captionsMenu (menu: HTMLSelectElement, tracks: () => Array<{ label: string, language: string }>, current: () => number, choose: (index: number) => void): void {
  menu.addEventListener('tracks', () => {
    const list = tracks()
    menu.replaceChildren(h('option', { value: '-1' }, 'Captions off'), ...list.map((t, i) => h('option', { value: String(i), lang: t.language === '' ? undefined : t.language }, t.label === '' ? t.language : t.label)))
    menu.value = String(current())
    menu.hidden = list.length === 0
  })
  menu.addEventListener('change', () => { choose(Number(menu.value)) })
}
