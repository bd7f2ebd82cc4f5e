import type { Command } from 'commander'

/** The credential options of every command that signs, and the order they are looked up in. */
export function withCredentialOptions (command: Command): Command {
  return command
    .option('--api-key <key>', 'API key (with --secret)')
    .option('--secret <secret>', 'secret of that API key (with --api-key)')
    .option('--profile <name>', 'a profile saved with `reelhouse profile set` (default: REELHOUSE_PROFILE)')
    .addHelpText('after', CREDENTIALS_HELP)
}

export const CREDENTIALS_HELP = `
Credentials come from the first of these that is given:
  1. --api-key and --secret
  2. REELHOUSE_API_KEY and REELHOUSE_SECRET
  3. --profile NAME (or REELHOUSE_PROFILE) from $XDG_CONFIG_HOME/reelhouse/credentials
     (~/.config/reelhouse/credentials), written by \`reelhouse profile set\`
  4. admin-credentials.json in the data directory, written by the server's first start
A key and its secret always come from the same place: half a pair is refused.`
