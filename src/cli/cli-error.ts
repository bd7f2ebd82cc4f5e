/** A mistake in how a command was called or configured: printed as its message alone, exit code 1. */
export class CliError extends Error {
  override name = 'CliError'
}
