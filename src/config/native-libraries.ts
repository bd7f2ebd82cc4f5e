/**
 * Sets a variable that a native library reads from the process's environment as it loads (DuckDB's
 * allocator reads DUCKDB_JE_MALLOC_CONF), unless the operator set it. Call it before the library is imported.
 */
export function setNativeLibraryDefault (name: string, value: string): void {
  process.env[name] ??= value
}
