import assert from 'node:assert/strict'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { CREDENTIALS_FILE } from '../../src/resources/accounts/index.ts'
import { CliError } from '../../src/cli/cli-error.ts'
import { ADMIN_CREDENTIALS_FILE, resolveCredentials, type CredentialFlags } from '../../src/cli/credentials.ts'
import { profilesFilePath, readProfiles, saveProfile } from '../../src/cli/profiles-file.ts'

const ADMIN = { apiKey: 'admin-key', secret: 'admin-secret' }
const FLAGS = { apiKey: 'flag-key', secret: 'flag-secret' }
const ENV = { apiKey: 'env-key', secret: 'env-secret' }
const PROD = { apiKey: 'prod-key', secret: 'prod-secret' }

describe('which credentials a command signs with', () => {
  const root = mkdtempSync(join(tmpdir(), 'reelhouse-credentials-'))
  const dataDir = join(root, 'data')
  const emptyDataDir = join(root, 'empty')
  const config = join(root, 'config')
  const profiles: NodeJS.ProcessEnv = { XDG_CONFIG_HOME: config }
  const envPair: NodeJS.ProcessEnv = { ...profiles, REELHOUSE_API_KEY: ENV.apiKey, REELHOUSE_SECRET: ENV.secret }
  before(() => {
    saveProfile(profilesFilePath(profiles), 'prod', { api_key: PROD.apiKey, secret: PROD.secret })
    saveProfile(profilesFilePath(profiles), 'half', { api_key: 'half-key', secret: 'x' })
    for (const dir of [dataDir, emptyDataDir]) mkdirSync(dir)
    writeFileSync(join(dataDir, 'admin-credentials.json'), JSON.stringify({ api_key: ADMIN.apiKey, secret: ADMIN.secret }), { mode: 0o600 })
  })
  after(() => { rmSync(root, { recursive: true, force: true }) })

  it('looks for the first-start credentials under the name the server writes them', () => {
    assert.equal(ADMIN_CREDENTIALS_FILE, CREDENTIALS_FILE)
  })

  const chosen: Array<[string, CredentialFlags, NodeJS.ProcessEnv, { apiKey: string, secret: string }]> = [
    ['--api-key and --secret', FLAGS, profiles, FLAGS],
    ['the flags before the environment and a profile variable', FLAGS, { ...envPair, REELHOUSE_PROFILE: 'prod' }, FLAGS],
    ['REELHOUSE_API_KEY and REELHOUSE_SECRET', {}, envPair, ENV],
    ['the environment before REELHOUSE_PROFILE', {}, { ...envPair, REELHOUSE_PROFILE: 'prod' }, ENV],
    ['--profile', { profile: 'prod' }, profiles, PROD],
    ['REELHOUSE_PROFILE', {}, { ...profiles, REELHOUSE_PROFILE: 'prod' }, PROD],
    ['the data directory\'s first-start credentials, last', {}, profiles, ADMIN],
    ['the data directory when the variables are empty', {}, { ...profiles, REELHOUSE_API_KEY: '', REELHOUSE_SECRET: '', REELHOUSE_PROFILE: '' }, ADMIN]
  ]
  for (const [name, flags, env, expected] of chosen) {
    it(`takes ${name}`, () => {
      assert.deepEqual(resolveCredentials(flags, env, dataDir), expected)
    })
  }

  const refused: Array<[string, CredentialFlags, NodeJS.ProcessEnv, RegExp, string?]> = [
    ['a lone --secret, though the data directory has credentials', { secret: 'WRONG' }, profiles, /^--secret is given but --api-key is not: .*give --api-key too/],
    ['a lone --api-key, though the data directory has credentials', { apiKey: 'read-only-key' }, profiles, /^--api-key is given but --secret is not: .*give --secret too/],
    ['a lone --api-key, though the environment has a pair', { apiKey: 'read-only-key' }, envPair, /^--api-key is given but --secret is not/],
    ['a lone REELHOUSE_API_KEY', {}, { ...profiles, REELHOUSE_API_KEY: 'k' }, /^REELHOUSE_API_KEY is set but REELHOUSE_SECRET is not: .*set REELHOUSE_SECRET too/],
    ['a lone REELHOUSE_SECRET, though a profile is named', {}, { ...profiles, REELHOUSE_SECRET: 's', REELHOUSE_PROFILE: 'prod' }, /^REELHOUSE_SECRET is set but REELHOUSE_API_KEY is not/],
    ['an empty --secret', { apiKey: 'k', secret: '' }, profiles, /^--secret is empty$/],
    ['--profile with --api-key and --secret', { ...FLAGS, profile: 'prod' }, profiles, /^--profile cannot be combined with --api-key and --secret/],
    ['--profile that the environment would override', { profile: 'prod' }, envPair, /^--profile prod was given, but REELHOUSE_API_KEY and REELHOUSE_SECRET are set/],
    ['a profile that does not exist, naming those that do', { profile: 'staging' }, profiles, /^no profile "staging" in .*credentials \(it has: prod, half\)\. Create it with: reelhouse profile set staging/],
    ['a profile when there is no profiles file', { profile: 'prod' }, { XDG_CONFIG_HOME: join(root, 'nowhere') }, /^no profile "prod" \(.*nowhere\/reelhouse\/credentials does not exist\)/],
    ['nothing at all', {}, profiles, /^no credentials: pass --api-key and --secret, set REELHOUSE_API_KEY and REELHOUSE_SECRET, name a profile with --profile/, emptyDataDir]
  ]
  for (const [name, flags, env, message, dir] of refused) {
    it(`refuses ${name}`, () => {
      assert.throws(() => resolveCredentials(flags, env, dir ?? dataDir), (error: unknown) => error instanceof CliError && message.test(error.message))
    })
  }

  it('refuses a profile missing its secret, naming what is missing', () => {
    const file = profilesFilePath(profiles)
    const saved = readFileSync(file, 'utf8')
    try {
      writeFileSync(file, JSON.stringify({ profiles: { half: { api_key: 'half-key' } } }))
      assert.throws(() => resolveCredentials({ profile: 'half' }, profiles, dataDir), /profile "half" in .* has no secret/)
    } finally {
      writeFileSync(file, saved)
    }
  })

  it('refuses to read a profiles file that other users may read, like ssh, and says how to fix it', () => {
    const file = profilesFilePath(profiles)
    chmodSync(file, 0o644)
    try {
      assert.throws(() => resolveCredentials({ profile: 'prod' }, profiles, dataDir), (error: unknown) =>
        error instanceof CliError && error.message === `${file} holds secrets but other users may access it (mode 0644), so it is not read. Run: chmod 600 '${file}'`)
    } finally {
      chmodSync(file, 0o600)
    }
  })
})

describe('the profiles file', () => {
  it('lives in XDG_CONFIG_HOME when it is absolute, else in ~/.config', () => {
    assert.equal(profilesFilePath({ XDG_CONFIG_HOME: '/etc/xdg-home', HOME: '/home/ana' }), '/etc/xdg-home/reelhouse/credentials')
    assert.equal(profilesFilePath({ XDG_CONFIG_HOME: 'relative', HOME: '/home/ana' }), '/home/ana/.config/reelhouse/credentials')
    assert.equal(profilesFilePath({ HOME: '/home/ana' }), '/home/ana/.config/reelhouse/credentials')
  })

  it('is created owner-only (0600, in a 0700 directory) even under a permissive umask, and keeps other profiles', () => {
    const root = mkdtempSync(join(tmpdir(), 'reelhouse-profiles-'))
    const previous = process.umask(0o000)
    try {
      const file = join(root, 'reelhouse', 'credentials')
      saveProfile(file, 'prod', { api_key: 'a', secret: 'b' })
      saveProfile(file, 'dev', { api_key: 'c', secret: 'd' })
      assert.equal(statSync(file).mode & 0o777, 0o600)
      assert.equal(statSync(join(root, 'reelhouse')).mode & 0o777, 0o700)
      assert.deepEqual(readProfiles(file), { prod: { api_key: 'a', secret: 'b' }, dev: { api_key: 'c', secret: 'd' } })
    } finally {
      process.umask(previous)
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('refuses a profile name that could not be typed back safely', () => {
    const root = mkdtempSync(join(tmpdir(), 'reelhouse-profiles-'))
    try {
      assert.throws(() => { saveProfile(join(root, 'credentials'), '../evil', { api_key: 'a', secret: 'b' }) }, /profile names are 1–64 letters/)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
