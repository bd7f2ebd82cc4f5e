// The configuration's public face: everything read from the environment, validated once at start.
export { loadConfig, ROLES, type Config, type ProcessRole, type TrustProxy } from './load-config.ts'
export { ConfigError } from './parse.ts'
export type { AwsCredentialsEnv } from './aws-credentials.ts'
export { toolProcessEnv, type MediaToolsEnv } from './media-tools.ts'
export { setNativeLibraryDefault } from './native-libraries.ts'
export { loadCliEnv, type CliEnv } from './cli-env.ts'
