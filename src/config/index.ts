// The configuration's public face: everything read from the environment, validated once at start.
export { loadConfig, ROLES, type Config, type ProcessRole } from './load-config.ts'
export { ConfigError } from './parse.ts'
