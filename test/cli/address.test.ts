import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { RUNNING_SERVER_FILE } from '../../src/server/running-server.ts'
import { runCli, type CliResult } from '../support/cli.ts'

/** The address a command used, from its `--verbose` trace (`* server URL (from SOURCE)`). */
function addressOf (stderr: string): string | undefined {
  return /^\* server (\S+) \(from /m.exec(stderr)?.[1]
}

describe('the server\'s address: the same order for every command', () => {
  const root = mkdtempSync(join(tmpdir(), 'reelhouse-cli-address-'))
  const dataDir = join(root, 'data')
  const config = join(root, 'config')
  const env = { REELHOUSE_DATA_DIR: dataDir, XDG_CONFIG_HOME: config, REELHOUSE_API_KEY: 'acct.key', REELHOUSE_SECRET: 'secret', API_PORT: '21443' }
  const media = join(root, 'clip.mp4')
  // Nothing listens at these addresses: each command says where it went, then fails to connect.
  const commands: Array<{ name: string, args: string[], url: (stdout: string, stderr: string) => string | undefined }> = [
    { name: 'sign', args: ['sign', 'GET', '/v2/labels'], url: (stdout) => /^(https?:\/\/[^/]+)/.exec(stdout)?.[1] },
    { name: 'console', args: ['console'], url: (stdout) => /^(https?:\/\/[^/]+)/.exec(stdout)?.[1] },
    { name: 'get', args: ['get', '/v2/labels', '--verbose'], url: (_, stderr) => addressOf(stderr) },
    { name: 'post', args: ['post', '/v2/labels', '--body', '{"name":"x"}', '--verbose'], url: (_, stderr) => addressOf(stderr) },
    { name: 'delete', args: ['delete', '/v2/labels/x', '--verbose'], url: (_, stderr) => addressOf(stderr) },
    { name: 'upload', args: ['upload', media, '--verbose'], url: (_, stderr) => addressOf(stderr) }
  ]
  before(() => {
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(media, 'not really a video')
  })
  after(() => { rmSync(root, { recursive: true, force: true }) })

  // The commands that send a request retry an unreachable server for a few seconds: they are run at one
  // step, side by side.
  const everyCommand = async (extraArgs: string[], extraEnv: Record<string, string | undefined>, expected: string, all = false): Promise<void> => {
    const chosen = all ? commands : commands.slice(0, 2)
    const results = await Promise.all(chosen.map(async (command) => await runCli([...command.args, ...extraArgs], { ...env, ...extraEnv })))
    for (const [i, command] of chosen.entries()) {
      const result = results[i] as CliResult
      assert.equal(command.url(result.stdout, result.stderr)?.replace(/\/$/, ''), expected, `${command.name}: ${result.stderr}`)
    }
  }

  it('takes the default from API_PORT, then PUBLIC_API_URL, then a running server, a profile, REELHOUSE_URL and --base-url, in that order', async () => {
    await everyCommand([], {}, 'https://localhost:21443')
    await everyCommand([], { PUBLIC_API_URL: 'https://public.example:9443' }, 'https://public.example:9443')

    // A server running from this data directory (the test runner's own pid: a live process).
    writeFileSync(join(dataDir, RUNNING_SERVER_FILE), JSON.stringify({ pid: process.pid, api_url: 'https://127.0.0.1:1', public_api_url: 'https://public.example:9443', public_cdn_url: 'http://x' }))
    await everyCommand([], { PUBLIC_API_URL: 'https://public.example:9443' }, 'https://127.0.0.1:1', true)

    const saved = await runCli(['profile', 'set', 'staging', '--api-key', 'acct.key', '--secret', 'secret', '--base-url', 'https://staging.example'], env)
    assert.equal(saved.status, 0, saved.stderr)
    assert.match((await runCli(['profile', 'list'], env)).stdout, /^staging {2}acct\.key {2}https:\/\/staging\.example$/m)
    await everyCommand([], { REELHOUSE_PROFILE: 'staging' }, 'https://staging.example')
    await everyCommand([], { REELHOUSE_PROFILE: 'staging', REELHOUSE_URL: 'https://env.example:1234' }, 'https://env.example:1234')
    await everyCommand(['--base-url', 'https://flag.example:4321'], { REELHOUSE_PROFILE: 'staging', REELHOUSE_URL: 'https://env.example:1234' }, 'https://flag.example:4321')
  })

  it('ignores the record of a server whose process is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid
    writeFileSync(join(dataDir, RUNNING_SERVER_FILE), JSON.stringify({ pid: gone, api_url: 'https://127.0.0.1:1', public_api_url: 'x', public_cdn_url: 'x' }))
    const result = await runCli(['sign', 'GET', '/v2/labels'], env)
    assert.match(result.stdout, /^https:\/\/localhost:21443\/v2\/labels\?/)
  })

  it('refuses an address that is not an http(s) URL, naming where it came from', async () => {
    const result = await runCli(['get', '/v2/labels'], { ...env, REELHOUSE_URL: 'localhost:8443' })
    assert.equal(result.status, 1)
    assert.match(result.stderr, /^reelhouse: REELHOUSE_URL must be an (absolute|http or https) URL/)
  })

  it('says where the address came from when nothing answers there', async () => {
    rmSync(join(dataDir, RUNNING_SERVER_FILE), { force: true })
    const result = await runCli(['get', 'v2/labels'], { ...env, REELHOUSE_URL: 'https://127.0.0.1:9' })
    assert.equal(result.status, 1)
    assert.match(result.stderr, /^reelhouse: Could not reach https:\/\/127\.0\.0\.1:9: .*\n {2}the address came from REELHOUSE_URL/)
  })
})
