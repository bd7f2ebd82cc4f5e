/** `--verbose`, set once the command line is read: what the CLI sends and receives, on stderr. */
export const options = { verbose: false }

/** A line on stderr when `--verbose` is given. */
export function trace (line: string): void {
  if (options.verbose) process.stderr.write(`${line}\n`)
}
