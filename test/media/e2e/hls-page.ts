import { createRequire } from 'node:module'

/** hls.js's build, served to test pages by a route of their own. */
export const HLS_JS = createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js')

/**
 * A page that plays `?src=` with hls.js given no configuration at all, loading hls.js from `script`;
 * fatal errors are kept in `window.hlsErrors`, the position it first played from in `window.firstPlaying`.
 */
export function hlsPage (script: string): string {
  return `<!doctype html><meta charset="utf-8"><video id="v" muted playsinline></video>
<script src="${script}"></script>
<script>
  const video = document.getElementById('v')
  window.firstPlaying = null
  window.hlsErrors = []
  video.addEventListener('playing', () => { if (window.firstPlaying === null) window.firstPlaying = video.currentTime })
  const hls = new Hls()
  hls.on(Hls.Events.ERROR, (_e, data) => { if (data.fatal) window.hlsErrors.push(data.details) })
  hls.loadSource(new URLSearchParams(location.search).get('src'))
  hls.attachMedia(video)
  hls.on(Hls.Events.MANIFEST_PARSED, () => { video.play() })
</script>`
}
