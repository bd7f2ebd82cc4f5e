import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { ROOT, runCli } from '../support/cli.ts'

describe('reelhouse usage: --expires, --version, help', () => {
  const root = mkdtempSync(join(tmpdir(), 'reelhouse-cli-usage-'))
  const env = { REELHOUSE_DATA_DIR: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), REELHOUSE_API_KEY: 'acct.key', REELHOUSE_SECRET: 'secret' }
  after(() => { rmSync(root, { recursive: true, force: true }) })

  const expiresOf = async (value: string): Promise<{ status: number | null, expires: number, stdout: string, stderr: string }> => {
    const result = await runCli(['sign', 'GET', 'v2/labels', '--expires', value], env)
    const url = result.stdout.split('\n')[0] as string
    return { ...result, expires: result.status === 0 ? Number(new URL(url).searchParams.get('expires')) : NaN }
  }

  it('takes --expires as a duration from now or as Unix seconds', async () => {
    for (const [value, seconds] of [['90s', 90], ['15m', 900], ['1h', 3600], ['2d', 172_800]] as const) {
      const before = Math.floor(Date.now() / 1000)
      const { status, expires, stderr } = await expiresOf(value)
      const afterwards = Math.floor(Date.now() / 1000)
      assert.equal(status, 0, stderr)
      assert.ok(expires >= before + seconds && expires <= afterwards + seconds, `${value}: ${expires}`)
    }
    const exact = await expiresOf('1895000000')
    assert.equal(exact.expires, 1_895_000_000)
    assert.match(exact.stdout, /^https:\/\/localhost:8443\/v2\/labels\?/, 'the path gains its leading slash')
  })

  it('refuses any other --expires with exit code 2 and prints nothing to sign with', async () => {
    for (const value of ['soon', '1h30m', '90', '-5m', '', '1e10', '15 m']) {
      const { status, stdout, stderr } = await expiresOf(value)
      assert.equal(status, 2, `${value}: ${stderr}`)
      assert.equal(stdout, '')
      assert.match(stderr, /^reelhouse: --expires /, value)
    }
    assert.match((await expiresOf('90')).stderr, /for a duration add its unit, e\.g\. 90s or 90m/)
  })

  it('exits with 2 on an unknown option', async () => {
    const { status, stderr } = await runCli(['sign', 'GET', '/v2/labels', '--expire', '1h'], env)
    assert.equal(status, 2)
    assert.match(stderr, /unknown option '--expire'/)
  })

  it('prints its version, describes every command, and shows examples', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    assert.equal((await runCli(['--version'], env)).stdout.trim(), version)
    const help = (await runCli(['--help'], env)).stdout
    for (const command of ['serve', 'accounts', 'users', 'sign', 'get', 'upload', 'profile', 'console', 'reindex']) {
      assert.match(help, new RegExp(`^ {2}${command}\\b.* {2}\\S`, 'm'), `${command} has a description`)
    }
    assert.match(help, /^Examples:\n {2}reelhouse /m)
    for (const command of [['sign'], ['get'], ['accounts', 'create'], ['profile', 'set']]) {
      assert.match((await runCli([...command, '--help'], env)).stdout, /^Examples?:\n {2}reelhouse /m, command.join(' '))
    }
  })

  /** What the shell completes after `line` (the words so far; the last one is being typed). */
  const completions: Record<string, (script: string, words: string[]) => string[] | undefined> = {
    bash: (script, words) => run('bash', ['-c', `source ${script}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _reelhouse; printf '%s\\n' "\${COMPREPLY[@]}"`]),
    // zsh runs the bash function through bashcompinit, in sh emulation as its completion system does;
    // compadd, which takes COMPREPLY there, keeps the words that start with what was typed.
    zsh: (script, words) => run('zsh', ['-c', `autoload -U +X compinit && compinit -u -d ${join(root, 'zcompdump')}; source ${script}; t() { emulate -L sh; setopt kshglob noshglob braceexpand; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _reelhouse; printf '%s\\n' "\${COMPREPLY[@]}"; }; t`])?.filter((word) => word.startsWith(words.at(-1) as string)),
    fish: (script, words) => run('fish', ['-c', `source ${script}; complete -C '${words.join(' ')}'`])?.map((line) => line.split('\t')[0] as string)
  }
  function run (shell: string, args: string[]): string[] | undefined {
    const result = spawnSync(shell, args, { encoding: 'utf8', cwd: root })
    if (result.error !== undefined) return undefined
    return result.stdout.split('\n').filter((line) => line !== '')
  }

  for (const shell of ['bash', 'zsh', 'fish']) {
    it(`completes commands, subcommands, options and choices in ${shell}`, async (t) => {
      const { stdout, status } = await runCli(['completion', shell], env)
      assert.equal(status, 0)
      const script = join(root, `completion.${shell}`)
      writeFileSync(script, stdout)
      const complete = (words: string[]): string[] | undefined => completions[shell]?.(script, words)
      if (complete(['reelhouse', '']) === undefined) { t.skip(`${shell} is not installed`); return }
      assert.deepEqual(complete(['reelhouse', 'ass']), ['assets'])
      assert.deepEqual(complete(['reelhouse', 'assets', ''])?.sort(), shell === 'fish' ? ['delete', 'get', 'list', 'update'] : ['--help', 'delete', 'get', 'list', 'update'])
      assert.deepEqual(complete(['reelhouse', 'assets', 'list', '--wh']), ['--where'])
      assert.deepEqual(complete(['reelhouse', 'users', 'create', '--role', ''])?.sort(), ['administrator', 'analytics_only', 'manager', 'read_only', 'upload_only'])
      assert.deepEqual(complete(['reelhouse', 'completion', ''])?.filter((word) => !word.startsWith('-')).sort(), ['bash', 'fish', 'zsh'])
    })
  }

  it('refuses a shell it has no completion for, with exit code 2', async () => {
    const { status, stderr } = await runCli(['completion', 'tcsh'], env)
    assert.equal(status, 2)
    assert.match(stderr, /Allowed choices are bash, zsh, fish/)
  })
})
