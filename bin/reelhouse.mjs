#!/usr/bin/env node
// Runs the CLI built as plain JavaScript (bin/bundle.mjs), built first when src/ changed, so `npm ci &&
// npm start` needs no build step. Where dist/ cannot be written and holds no build of these sources, it
// runs the TypeScript sources through tsx, which holds about 50 MB more (docs/deployment.md, "Memory").
import { pathToFileURL } from 'node:url'
import { build } from './bundle.mjs'

let entry
try {
  entry = await build()
} catch (error) {
  if (!['EACCES', 'EPERM', 'EROFS'].includes(error?.code)) throw error
  console.error(`reelhouse: cannot write the build (${error.code}): running the sources through tsx; \`npm run build\` as the installation's owner avoids it`)
}
if (entry !== undefined) {
  await import(pathToFileURL(entry).href)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import('../src/cli/main.ts')
}
