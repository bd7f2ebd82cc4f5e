import { X509Certificate } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface TlsMaterial {
  key: string
  cert: string
  /** SHA-256 fingerprint of the certificate, as browsers and `openssl x509 -fingerprint -sha256` show it. */
  fingerprint: string
  /** Set when this call generated the certificate. */
  generatedAt?: string
}

/**
 * The api role serves TLS only. With TLS_CERT/TLS_KEY the given files are used; otherwise a self-signed
 * certificate for localhost and 127.0.0.1 is generated once into the data directory.
 */
export async function loadOrCreateTls (options: { tlsCert: string | undefined, tlsKey: string | undefined, dataDir: string }): Promise<TlsMaterial> {
  if (options.tlsCert !== undefined && options.tlsKey !== undefined) {
    const cert = readFileSync(options.tlsCert, 'utf8')
    return { cert, key: readFileSync(options.tlsKey, 'utf8'), fingerprint: fingerprintOf(cert) }
  }
  const certFile = join(options.dataDir, 'tls-cert.pem')
  const keyFile = join(options.dataDir, 'tls-key.pem')
  if (existsSync(certFile) && existsSync(keyFile)) {
    const cert = readFileSync(certFile, 'utf8')
    return { cert, key: readFileSync(keyFile, 'utf8'), fingerprint: fingerprintOf(cert) }
  }
  const notAfter = new Date(Date.now() + 825 * 24 * 3600 * 1000)
  // Imported only to generate: its certificate toolkit is megabytes of heap a running server has no use for.
  const { generate } = await import('selfsigned')
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    algorithm: 'sha256',
    keySize: 2048,
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }
    ]
  })
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
  writeFileSync(keyFile, pems.private, { mode: 0o600 })
  writeFileSync(certFile, pems.cert, { mode: 0o644 })
  return { cert: pems.cert, key: pems.private, fingerprint: fingerprintOf(pems.cert), generatedAt: certFile }
}

function fingerprintOf (cert: string): string {
  return new X509Certificate(cert).fingerprint256
}
