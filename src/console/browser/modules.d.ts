// Stylesheets imported for their effect: esbuild gathers them into the page's one stylesheet.
declare module '*.css'
