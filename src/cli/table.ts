/** A column of a table: its heading and how a row shows in it. */
export interface Column<T> { heading: string, value: (row: T) => string }

/** Widest a cell shows; longer values end in an ellipsis (the JSON output has them whole). */
const MAX_CELL = 48

/** Whether answers are printed as JSON: asked for, or standard output is not a terminal (a pipe, a file). */
export function wantsJson (flags: { json?: boolean }): boolean {
  return flags.json === true || process.stdout.isTTY !== true
}

/**
 * Prints every item of a list (every page of it): one JSON object per line for a program, or an
 * aligned table for a person, with a count below.
 */
export async function printList<T> (items: AsyncIterable<T>, columns: Array<Column<T>>, flags: { json?: boolean }, noun: string): Promise<void> {
  if (wantsJson(flags)) {
    for await (const item of items) console.log(JSON.stringify(item))
    return
  }
  const rows: string[][] = []
  for await (const item of items) rows.push(columns.map((column) => cell(column.value(item))))
  if (rows.length === 0) {
    console.log(`No ${noun}s.`)
    return
  }
  const widths = columns.map((column, i) => Math.max(column.heading.length, ...rows.map((row) => (row[i] as string).length)))
  const line = (cells: string[]): string => cells.map((text, i) => i === cells.length - 1 ? text : text.padEnd(widths[i] as number)).join('  ').trimEnd()
  console.log(line(columns.map((column) => column.heading.toUpperCase())))
  for (const row of rows) console.log(line(row))
  console.log(`\n${rows.length} ${noun}${rows.length === 1 ? '' : 's'}`)
}

/** One resource: `name: value` lines for a person, its JSON for a program. */
export function printOne (item: object, flags: { json?: boolean }): void {
  if (wantsJson(flags)) {
    console.log(JSON.stringify(item, null, 2))
    return
  }
  const entries = Object.entries(item).filter(([, value]) => value !== null && value !== undefined)
  const width = Math.max(...entries.map(([name]) => name.length))
  for (const [name, value] of entries) console.log(`${name.padEnd(width)}  ${typeof value === 'string' ? value : JSON.stringify(value)}`)
}

function cell (text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]/g, ' ')
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat
}

/** Milliseconds as `m:ss` (or `h:mm:ss`), blank when unknown. */
export function clock (ms: number | null | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) return ''
  const total = Math.round(ms / 1000)
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60]
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`
}
