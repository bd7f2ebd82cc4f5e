import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { freePort, startClientServer, type ClientServer } from './support/client-server.ts'

const run = promisify(execFile)
const ROOT = join(import.meta.dirname, '..', '..')
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
const TSX = import.meta.resolve('tsx/esm')

/** The `ts` code blocks of docs/client.md, in order, each with the heading of its section. */
function docExamples (): Array<{ section: string, code: string }> {
  const text = readFileSync(join(ROOT, 'docs', 'client.md'), 'utf8')
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => {
    const headings = [...text.slice(0, match.index).matchAll(/^#+ (.+)$/gm)]
    return { section: headings.at(-1)?.[1] ?? '', code: match[1] as string }
  })
}

/** npm without the network: a registry that cannot answer, so anything that tries to download fails. */
const OFFLINE = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' }

describe('@reelhouse/client as a user installs it: npm pack, install the tarball in an empty project, use it', () => {
  let scratch: string
  let server: ClientServer
  let env: NodeJS.ProcessEnv
  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'reelhouse-client-install-'))
    const packed = await run('npm', ['pack', '--workspace', 'packages/client', '--pack-destination', scratch, '--json'], { cwd: ROOT, env: { ...process.env, ...OFFLINE } })
    const [{ filename }] = JSON.parse(packed.stdout) as Array<{ filename: string }>
    const project = join(scratch, 'project')
    mkdirSync(project)
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }))
    await run('npm', ['install', join(scratch, filename), '--no-package-lock'], { cwd: project, env: { ...process.env, ...OFFLINE } })
    scratch = project
    // Chunk URLs point at PUBLIC_API_URL: the API listens where that says (the upload example).
    const port = await freePort()
    server = await startClientServer('sqlite', { PUBLIC_API_URL: `http://127.0.0.1:${port}` }, { apiPort: port })
    env = {
      ...process.env,
      REELHOUSE_URL: server.baseUrl,
      REELHOUSE_CDN_URL: server.cdnUrl,
      REELHOUSE_INDEXER_URL: server.indexerUrl,
      REELHOUSE_API_KEY: server.admin.apiKey,
      REELHOUSE_SECRET: server.admin.secret,
      // Read by the example that trusts a CA; this test server speaks plain HTTP, where it is unused.
      REELHOUSE_CA_FILE: join(ROOT, 'package.json')
    }
    delete env.NODE_TEST_CONTEXT
  })
  after(async () => {
    await server?.close()
    if (scratch !== undefined) rmSync(join(scratch, '..'), { recursive: true, force: true })
  })

  it('holds only the built files, and no dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(scratch, 'node_modules', '@reelhouse', 'client', 'package.json'), 'utf8'))
    assert.equal(manifest.dependencies, undefined)
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/node.js', 'dist/browser/reelhouse-client.js', 'README.md']) {
      assert.ok(readFileSync(join(scratch, 'node_modules', '@reelhouse', 'client', file)).length > 0, file)
    }
  })

  it('imports with plain Node and makes a signed call', async () => {
    writeFileSync(join(scratch, 'call.mjs'), [
      "import { Reelhouse, NotFoundError } from '@reelhouse/client'",
      "import { fetchWithCa } from '@reelhouse/client/node'",
      'const client = new Reelhouse({ baseUrl: process.env.REELHOUSE_URL, apiKey: process.env.REELHOUSE_API_KEY, secret: process.env.REELHOUSE_SECRET, fetch: fetchWithCa() })',
      "const label = await client.labels.create({ name: 'From the tarball' })",
      "const missing = await client.players.get('f'.repeat(32)).catch((error) => error instanceof NotFoundError)",
      'console.log(JSON.stringify({ me: (await client.users.me()).role, label: label.full_name, missing }))'
    ].join('\n'))
    const { stdout } = await run(process.execPath, ['call.mjs'], { cwd: scratch, env })
    assert.deepEqual(JSON.parse(stdout), { me: 'administrator', label: '/From the tarball', missing: true })
  })

  const examples = docExamples()
  it('finds the examples of docs/client.md', () => {
    assert.ok(examples.length >= 8, `only ${examples.length} ts blocks in docs/client.md`)
  })

  for (const [index, example] of examples.entries()) {
    it(`docs/client.md example ${index + 1} ("${example.section}") runs against the installed package`, async () => {
      const file = `example-${index + 1}.ts`
      writeFileSync(join(scratch, file), example.code)
      const { stdout, stderr } = await run(process.execPath, ['--import', TSX, file], { cwd: scratch, env })
      assert.equal(stderr, '')
      assert.notEqual(stdout.trim(), '', 'an example shows what it did')
      // `console.log(x) // shown` in an example promises what it prints.
      for (const [, shown] of example.code.matchAll(/console\.log\(.*\) \/\/ (.+?)(?::.*)?$/gm)) {
        assert.ok(stdout.includes(shown as string), `example ${index + 1} should print ${shown}, printed:\n${stdout}`)
      }
    })
  }

  it('runs the CommonJS example of docs/client.md in a CommonJS project, where the ESM examples are refused as the page says', async () => {
    const text = readFileSync(join(ROOT, 'docs', 'client.md'), 'utf8')
    const cjs = [...text.matchAll(/^```js\n(\/\/ example\.cjs[\s\S]*?)^```$/gm)].map((match) => match[1] as string)
    assert.equal(cjs.length, 1, 'one CommonJS example')
    // A project as `npm init` makes it (CommonJS), inside the one that has the package installed.
    const project = join(scratch, 'commonjs')
    mkdirSync(project, { recursive: true })
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'commonjs', version: '1.0.0', main: 'index.js', type: 'commonjs' }))
    writeFileSync(join(project, 'example.cjs'), cjs[0] as string)
    const { stdout, stderr } = await run(process.execPath, ['example.cjs'], { cwd: project, env })
    assert.equal(stderr, '')
    assert.match(stdout, /\(administrator\) in /)

    writeFileSync(join(project, 'example.ts'), (examples[0] as { code: string }).code)
    // `npx tsx example.ts`, as the page's reader would run it.
    const refused = await run(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'example.ts'], { cwd: project, env }).then(() => undefined, (error: { stderr: string }) => error)
    assert.match(refused?.stderr ?? '', /Top-level await is currently not supported with the "cjs" output format/)
  })

  it('type-checks the typed calls (test/client/types/typed-calls.ts) and every example against the published declarations', async () => {
    const calls = readFileSync(join(import.meta.dirname, 'types', 'typed-calls.ts'), 'utf8').replace("from 'reelhouse/client'", "from '@reelhouse/client'")
    writeFileSync(join(scratch, 'typed-calls.ts'), calls)
    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], strict: true, noEmit: true, skipLibCheck: true,
        // The examples use Node's process and crypto; the types come from the repository.
        types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')]
      },
      files: ['typed-calls.ts', ...examples.map((_, index) => `example-${index + 1}.ts`)]
    }))
    const result = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: scratch }).catch((error: { stdout: string, code: number }) => error)
    assert.equal('code' in result ? result.code : 0, 0, `tsc found errors:\n${result.stdout}`)
  })
})
