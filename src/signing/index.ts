export { parseQueryPairs, duplicatedKeys, canonicalParameters, expiresSeconds, QueryParseError, type QueryPairs } from './canonical.ts'
export { computeSignature, signatureHasher, signatureMatches, signatureMatchesUnder, type SignatureHasher } from './signature.ts'
export { signedPath } from './sign-request.ts'
export { describeStringToSign, stringToSign, type StringToSignInput } from './string-to-sign.ts'
