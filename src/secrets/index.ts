// Secrets at rest: the master key and the box that encrypts user secrets with it.
export { SecretBox } from './secret-box.ts'
export { loadMasterKey } from './master-key.ts'
