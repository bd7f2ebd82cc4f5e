import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { build, stop } from 'esbuild'

/** The page's script and stylesheet, built in memory from `browser/` (TypeScript and CSS). */
export interface ConsoleBundle {
  script: string
  style: string
  /** A digest of both, for `ETag`. */
  etag: string
  /** How long esbuild took, for the start-up line. */
  buildMs: number
}

const ENTRY = join(import.meta.dirname, 'browser', 'main.ts')
let building: Promise<ConsoleBundle> | undefined

/**
 * Builds the console once per process, on first use (the `api` role asks at start, so a broken build shows
 * there and the first visitor does not wait): esbuild bundles the page with the client, uPlot and hls.js
 * into one ES module and one stylesheet, minified, for browsers of 2022 on (docs/console.md).
 */
export async function consoleBundle (): Promise<ConsoleBundle> {
  building ??= buildBundle().catch((error: unknown) => {
    building = undefined
    throw error
  })
  return await building
}

async function buildBundle (): Promise<ConsoleBundle> {
  const started = performance.now()
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    outdir: 'console',
    logLevel: 'silent'
  })
  const text = (extension: string): string => {
    const file = result.outputFiles.find((output) => output.path.endsWith(extension))
    if (file === undefined) throw new Error(`the console build wrote no ${extension} file`)
    return file.text
  }
  const script = text('.js')
  const style = text('.css')
  // esbuild builds in a child process that would otherwise stay for the process's life, holding about
  // 40 MB for nothing (docs/benchmarks.md, "Soak"); the next build, if any, starts another.
  await stop()
  const etag = `"${createHash('sha256').update(script).update(style).digest('base64url').slice(0, 27)}"`
  return { script, style, etag, buildMs: Math.round(performance.now() - started) }
}
