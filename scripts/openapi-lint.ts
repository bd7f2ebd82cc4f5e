// Lints the OpenAPI document the service serves at /openapi.json with Redocly CLI and the rules of
// redocly.yaml: every operation has a summary, a description, an operationId and its 4xx answers; every
// field and parameter a description and an example (scripts/redocly-rules.mjs); examples fit their schemas.
//   node --import tsx scripts/openapi-lint.ts                 lints the service's document (npm run check:openapi)
//   node --import tsx scripts/openapi-lint.ts --write FILE    writes the document to FILE, no lint
//   node --import tsx scripts/openapi-lint.ts FILE            lints a document already written
// The app is built in-process on a throw-away data directory; nothing listens and nothing is kept.
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { buildApp } from '../src/app/build-app.ts'
import { createContext } from '../src/app/context.ts'
import { loadConfig } from '../src/config/index.ts'

const ROOT = join(import.meta.dirname, '..')

/** The document as GET /openapi.json answers it on a fresh service. */
export async function servedDocument (): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-openapi-'))
  try {
    const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' })
    const ctx = await createContext(config)
    try {
      const app = await buildApp(ctx, { logger: false })
      const res = await app.inject('/openapi.json')
      await app.close()
      if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}: ${res.body}`)
      return res.body
    } finally {
      await ctx.close()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** Redocly CLI on `file` with the project's rules; its report goes to this process's output. */
export function lint (file: string, stdio: 'inherit' | 'pipe' = 'inherit'): { status: number | null, output: string } {
  const result = spawnSync('redocly', ['lint', file, '--config', join(ROOT, 'redocly.yaml')], {
    cwd: ROOT,
    stdio: stdio === 'inherit' ? 'inherit' : 'pipe',
    encoding: 'utf8',
    // The project's own binaries first, as under `npm run`; no telemetry, no update notice.
    env: { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
    timeout: 120_000
  })
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` }
}

async function main (args: string[]): Promise<number> {
  if (args[0] === '--write' && args[1] !== undefined) {
    writeFileSync(args[1], await servedDocument())
    return 0
  }
  if (args[0] !== undefined) return lint(args[0]).status ?? 1
  const scratch = mkdtempSync(join(tmpdir(), 'reelhouse-openapi-lint-'))
  try {
    const file = join(scratch, 'openapi.json')
    writeFileSync(file, await servedDocument())
    return lint(file).status ?? 1
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

if (process.argv[1] === import.meta.filename) process.exitCode = await main(process.argv.slice(2))
