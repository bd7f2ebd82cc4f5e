// TLS for the api role: the operator's certificate, or one generated once into the data directory.
export { loadOrCreateTls } from './tls-material.ts'
