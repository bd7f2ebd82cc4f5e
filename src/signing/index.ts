export { parseQueryPairs, duplicatedKeys, canonicalParameters, expiresSeconds, methodSignsBody, QueryParseError, type QueryPairs } from './canonical.ts'
export { computeSignature, signatureHasher, signatureMatches, type SignatureHasher, type SignatureInput } from './signature.ts'
export { signedPath, type SignRequestOptions } from './sign-request.ts'
