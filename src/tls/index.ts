// TLS for the api role: the operator's certificate, or one generated once into the data directory.
export { loadOrCreateTls, type TlsMaterial } from './tls-material.ts'
