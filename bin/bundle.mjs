#!/usr/bin/env node
// The CLI as plain JavaScript: src/ bundled by esbuild into dist/cli-<digest>/, the digest naming the
// sources it was built from, so a change under src/ builds anew. Running it costs about 50 MB less than
// running the sources through tsx (docs/deployment.md, "Memory"). `node bin/bundle.mjs` (`npm run build`)
// builds it ahead, for an installation whose folder the service may not write.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'

const ROOT = join(import.meta.dirname, '..')
const SOURCES = ['src', join('packages', 'client', 'src'), 'package.json']
const OUT = join(ROOT, 'dist')

function* files (path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) { yield [path, stat]; return }
  for (const name of readdirSync(path).sort()) yield * files(join(path, name))
}

/** A digest of every source's path, size and modification time, and of the folder it lives in. */
function digestOfSources () {
  const hash = createHash('sha256').update(ROOT).update(process.version)
  for (const source of SOURCES) {
    for (const [path, stat] of files(join(ROOT, source))) hash.update(`${relative(ROOT, path)}\0${stat.size}\0${stat.mtimeMs}\n`)
  }
  return hash.digest('hex').slice(0, 16)
}

/**
 * The CLI's entry point for the sources as they are now, built first when there is none. Each build
 * writes a folder of its own and renames it into place, so processes starting together never read a
 * half-written one. Builds of other sources are removed once a day old (a process started from one may
 * still load its chunks).
 */
export async function build () {
  const digest = digestOfSources()
  const target = join(OUT, `cli-${digest}`)
  if (existsSync(join(target, 'main.js'))) return join(target, 'main.js')
  const esbuild = await import('esbuild')
  const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  const external = Object.keys(packageJson.dependencies).flatMap((name) => [name, `${name}/*`])
  const partial = join(OUT, `.cli-${digest}-${process.pid}`)
  mkdirSync(OUT, { recursive: true })
  try {
    await esbuild.build({
      entryPoints: { main: join(ROOT, 'src', 'cli', 'main.ts') },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node.split('.')[0]}`,
      outdir: partial,
      external,
      keepNames: true,
      logLevel: 'silent',
      plugins: [sourcePaths]
    })
  } finally {
    // esbuild's child process would otherwise stay for the life of the process.
    await esbuild.stop()
  }
  try {
    renameSync(partial, target)
  } catch (error) {
    // Another process built the same sources first.
    rmSync(partial, { recursive: true, force: true })
    if (!existsSync(join(target, 'main.js'))) throw error
  }
  const dayAgo = Date.now() - 86_400_000
  for (const name of readdirSync(OUT)) {
    const old = join(OUT, name)
    if (name.startsWith('cli-') && name !== `cli-${digest}` && statSync(old).mtimeMs < dayAgo) rmSync(old, { recursive: true, force: true })
  }
  return join(target, 'main.js')
}

/** A module's own folder and URL stay its source's: files beside it (the console's page, the API overview) are read from there. */
const sourcePaths = {
  name: 'source-paths',
  setup (build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${join('node_modules', '')}`)) return undefined
      const contents = readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
      return { contents, loader: 'ts' }
    })
  }
}

if (process.argv[1] === import.meta.filename) console.log(relative(process.cwd(), await build()))
