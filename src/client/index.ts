export { ReelhouseClient, ReelhouseError, type ClientOptions, type Page } from './client.ts'
