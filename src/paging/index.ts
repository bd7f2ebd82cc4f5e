export { PageTokens, queryBinding, type KeyValue } from './page-tokens.ts'
export { pageParams, toPage, DEFAULT_LIMIT, MAX_LIMIT, type PageParams, type Page } from './page-params.ts'
export { afterPosition, type KeyColumn } from './keyset.ts'
