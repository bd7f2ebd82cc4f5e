/** A mistake in how a command was called or configured: printed as its message alone, exit code 1. */
export class CliError extends Error {
  override name = 'CliError'
  readonly exitCode: number = 1
}

/** A value the command line cannot take (`--expires soon`): exit code 2, as for commander's own usage errors. */
export class UsageError extends CliError {
  override name = 'UsageError'
  override readonly exitCode = 2
}
