import type { Command, Option } from 'commander'
import { UsageError } from './cli-error.ts'

/** Every command path (`""`, `"assets"`, `"assets list"`), its subcommands, options and option choices. */
interface Node { path: string, command: Command }

function nodes (command: Command, path = ''): Node[] {
  return [{ path, command }, ...command.commands.map((sub) => nodes(sub, path === '' ? sub.name() : `${path} ${sub.name()}`)).flat()]
}

const visible = (command: Command): Command[] => command.commands.filter((sub) => sub.name() !== 'help')
const options = (command: Command): Option[] => command.options.filter((option) => option.long !== undefined)
const words = (command: Command): string[] => [
  ...visible(command).map((sub) => sub.name()),
  ...command.registeredArguments.flatMap((argument) => argument.argChoices ?? []),
  ...options(command).map((option) => option.long as string),
  '--help'
]

/** Commands whose argument is a file: the shell completes file names there. */
const TAKES_FILES = new Set(['upload'])

/**
 * `reelhouse completion bash|zsh|fish`: a completion script generated from the commands themselves, so
 * it always knows every command, option and choice. zsh runs the bash one through `bashcompinit`.
 */
export function completionScript (shell: string, program: Command): string {
  if (shell === 'bash') return bashScript(program)
  if (shell === 'zsh') return `#compdef reelhouse\nautoload -U +X bashcompinit && bashcompinit\n${bashScript(program)}`
  if (shell === 'fish') return fishScript(program)
  throw new UsageError(`completion is available for bash, zsh and fish, not ${JSON.stringify(shell)}`)
}

function bashScript (program: Command): string {
  const all = nodes(program)
  const cases = all.map(({ path, command }) => `    "${path}") echo ${shellWords(words(command))} ;;`).join('\n')
  const choices = all.flatMap(({ path, command }) => options(command)
    .filter((option) => option.argChoices !== undefined)
    .map((option) => `    "${path}|${option.long as string}") echo ${shellWords(option.argChoices as string[])} ;;`)).join('\n')
  const valued = all.flatMap(({ path, command }) => options(command).filter((option) => option.required || option.optional).map((option) => `"${path}|${option.long as string}"`))
  return `# reelhouse completion for bash: source <(reelhouse completion bash), or add that line to ~/.bashrc
_reelhouse_words() {
  case "$1" in
${cases}
  esac
}
_reelhouse_choices() {
  case "$1" in
${choices}
  esac
}
_reelhouse() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ $word == -* ]] && continue
    if [[ " $(_reelhouse_words "$path") " == *" $word "* ]]; then path="\${path:+$path }$word"; fi
  done
  local choices
  choices="$(_reelhouse_choices "$path|$prev")"
  if [[ -n $choices ]]; then COMPREPLY=($(compgen -W "$choices" -- "$cur")); return; fi
  case "$path|$prev" in
    ${valued.length > 0 ? valued.join('|') : '"__none__"'}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  COMPREPLY=($(compgen -W "$(_reelhouse_words "$path")" -- "$cur"))
  case "$path" in
    ${[...TAKES_FILES].map((name) => `"${name}"`).join('|')}) [[ $cur != -* ]] && COMPREPLY+=($(compgen -f -- "$cur")) ;;
  esac
}
complete -o filenames -F _reelhouse reelhouse
`
}

function fishScript (program: Command): string {
  const lines = ['# reelhouse completion for fish: reelhouse completion fish > ~/.config/fish/completions/reelhouse.fish', 'complete -c reelhouse -f']
  for (const { path, command } of nodes(program)) {
    const parts = path === '' ? [] : path.split(' ')
    const subs = visible(command).map((sub) => sub.name())
    // Where this command's words apply: each part of its path seen, and none of its subcommands yet.
    const seen = parts.map((part) => `__fish_seen_subcommand_from ${part}`)
    const condition = [...(parts.length === 0 ? ['__fish_use_subcommand'] : seen), ...(parts.length > 0 && subs.length > 0 ? [`not __fish_seen_subcommand_from ${subs.join(' ')}`] : [])].join('; and ')
    for (const sub of visible(command)) lines.push(`complete -c reelhouse -n ${quote(condition)} -a ${quote(sub.name())} -d ${quote(sub.description())}`)
    const choices = command.registeredArguments.flatMap((argument) => argument.argChoices ?? [])
    if (choices.length > 0) lines.push(`complete -c reelhouse -n ${quote(seen.join('; and '))} -a ${quote(choices.join(' '))}`)
    for (const option of options(command)) {
      const takes = option.required || option.optional
      const choices = option.argChoices === undefined ? '' : ` -a ${quote(option.argChoices.join(' '))}`
      lines.push(`complete -c reelhouse -n ${quote(parts.length === 0 ? 'true' : seen.join('; and '))} -l ${option.long?.slice(2) ?? ''}${takes ? ' -x' : ''}${choices} -d ${quote(option.description)}`)
    }
    if (TAKES_FILES.has(path)) lines.push(`complete -c reelhouse -n ${quote(seen.join('; and '))} -F`)
  }
  return lines.join('\n') + '\n'
}

function shellWords (list: string[]): string {
  return list.map((word) => word.replace(/[^A-Za-z0-9_.-]/g, '')).join(' ')
}

function quote (text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}
