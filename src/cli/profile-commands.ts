import type { Command } from 'commander'
import { loadCliEnv } from '../config/index.ts'
import { CliError } from './cli-error.ts'
import { profilesFilePath, readProfiles, saveProfile } from './profiles-file.ts'
import { checked } from './server-address.ts'

/** `reelhouse profile set NAME --api-key … --secret …` and `reelhouse profile list` (names and keys, never secrets). */
export function registerProfileCommands (program: Command, print: (line: string) => void = console.log): void {
  const profile = program.command('profile').description('named credentials in your user configuration directory (file mode 0600)')

  profile.command('set')
    .description('save (or replace) a profile: an API key and its secret')
    .argument('<name>', 'profile name, e.g. prod')
    .option('--api-key <key>', 'API key')
    .option('--secret <secret>', 'secret of that API key')
    .option('--base-url <url>', 'the server this profile talks to, e.g. https://media.example.com')
    .addHelpText('after', '\nExample:\n  reelhouse profile set prod --api-key c0ffee….Ab12 --secret … --base-url https://media.example.com\n  reelhouse --profile prod assets list')
    .action((name: string, options: { apiKey?: string, secret?: string, baseUrl?: string }) => {
      const missing = [options.apiKey === undefined || options.apiKey === '' ? '--api-key' : undefined, options.secret === undefined || options.secret === '' ? '--secret' : undefined].filter((x) => x !== undefined)
      if (missing.length > 0) throw new CliError(`profile set needs both --api-key and --secret; missing: ${missing.join(' and ')}`)
      const file = profilesFilePath(loadCliEnv())
      const baseUrl = options.baseUrl === undefined ? undefined : checked(options.baseUrl, '--base-url')
      saveProfile(file, name, { api_key: options.apiKey as string, secret: options.secret as string, ...(baseUrl === undefined ? {} : { base_url: baseUrl }) })
      print(`saved profile "${name}" in ${file}`)
    })

  profile.command('list')
    .description('list the saved profiles with their API keys (secrets are not shown)')
    .action(() => {
      const file = profilesFilePath(loadCliEnv())
      const profiles = Object.entries(readProfiles(file))
      if (profiles.length === 0) {
        print(`no profiles in ${file}; add one with: reelhouse profile set NAME --api-key KEY --secret SECRET`)
        return
      }
      const width = Math.max(...profiles.map(([name]) => name.length))
      for (const [name, saved] of profiles) print(`${name.padEnd(width)}  ${saved.api_key}${saved.base_url === undefined ? '' : `  ${saved.base_url}`}`)
    })
}
