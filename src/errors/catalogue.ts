/**
 * The one catalogue of error codes. A code is stable once released: clients and docs key on it.
 * `status` is the HTTP status; `title` is the RFC 9457 title (the same for every occurrence of the code).
 * @see https://www.rfc-editor.org/rfc/rfc9457
 */
export const ERRORS = {
  // 400 — bad input
  bad_request: { status: 400, title: 'Bad request' },
  validation_failed: { status: 400, title: 'Invalid parameters' },
  parameters_missing: { status: 400, title: 'Missing parameters' },
  parameter_duplicated: { status: 400, title: 'Duplicated parameter' },
  query_malformed: { status: 400, title: 'Malformed query string' },
  body_malformed: { status: 400, title: 'Malformed request body' },
  expires_invalid: { status: 400, title: 'Invalid expires parameter' },
  limit_invalid: { status: 400, title: 'Invalid limit' },
  page_token_invalid: { status: 400, title: 'Invalid page token' },
  where_invalid: { status: 400, title: 'Invalid where expression' },
  jsonp_not_allowed: { status: 400, title: 'JSONP not available here' },
  callback_invalid: { status: 400, title: 'Invalid callback name' },
  label_name_taken: { status: 400, title: 'Label name already used' },
  label_move_invalid: { status: 400, title: 'Invalid label move' },
  label_parent_not_found: { status: 400, title: 'Parent label not found' },
  label_path_invalid: { status: 400, title: 'Invalid label path' },
  label_paths_missing: { status: 400, title: 'Labels not found' },
  // 401 — authentication
  signature_invalid: { status: 401, title: 'Invalid signature' },
  request_expired: { status: 401, title: 'Request expired' },
  indexer_unauthorized: { status: 401, title: 'Authentication required' },
  access_key_required: { status: 401, title: 'Access key required' },
  // 403 — role or transport
  permission_denied: { status: 403, title: 'Operation not permitted for this role' },
  https_required: { status: 403, title: 'HTTPS required' },
  access_key_invalid: { status: 403, title: 'Invalid access key' },
  // 404
  not_found: { status: 404, title: 'Not found' },
  route_not_found: { status: 404, title: 'No such route' },
  user_not_found: { status: 404, title: 'User not found' },
  account_not_found: { status: 404, title: 'Account not found' },
  asset_not_found: { status: 404, title: 'Asset not found' },
  syndication_not_found: { status: 404, title: 'Syndication not found' },
  label_not_found: { status: 404, title: 'Label not found' },
  player_not_found: { status: 404, title: 'Player not found' },
  publishing_rule_not_found: { status: 404, title: 'Publishing rule not found' },
  // 405, 409, 413, 429
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'Conflict' },
  last_administrator: { status: 409, title: 'Last administrator' },
  asset_status_conflict: { status: 409, title: 'Asset status does not allow this change' },
  asset_id_taken: { status: 409, title: 'Identifier already used by another asset' },
  label_has_children: { status: 409, title: 'Label has children' },
  body_too_large: { status: 413, title: 'Request body too large' },
  credits_exhausted: { status: 429, title: 'Request limit exceeded' },
  // 5xx — never with internals
  internal_error: { status: 500, title: 'Internal server error' },
  dependency_unavailable: { status: 503, title: 'Service unavailable' }
} as const satisfies Record<string, { status: number, title: string }>

export type ErrorCode = keyof typeof ERRORS
