// Stylesheets imported for their effect: esbuild gathers them into the page's one stylesheet.
declare module '*.css'

// hls.js's light build (no subtitles, alternate audio or DRM) has the full build's API but ships no types of its own.
declare module 'hls.js/light' {
  export { default } from 'hls.js'
}
