/**
 * The Prometheus text format, for every process's figures: a family is a named metric with its samples.
 * @see https://prometheus.io/docs/instrumenting/exposition_formats/
 */
export type Labels = Record<string, string>
export interface Sample { labels: Labels, value: number }
export interface Family { name: string, help: string, kind: 'counter' | 'gauge', samples: Sample[] }

export function counter (name: string, help: string, value: number, labels: Labels = {}): Family {
  return { name, help, kind: 'counter', samples: [{ labels, value }] }
}

export function gauge (name: string, help: string, value: number, labels: Labels = {}): Family {
  return { name, help, kind: 'gauge', samples: [{ labels, value }] }
}

export function renderMetrics (families: Family[]): string {
  const lines: string[] = []
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${family.help}`, `# TYPE ${family.name} ${family.kind}`)
    for (const sample of family.samples) {
      const labels = Object.entries(sample.labels).map(([key, value]) => `${key}="${value.replace(/["\\\n]/g, (c) => c === '\n' ? '\\n' : `\\${c}`)}"`)
      lines.push(`${family.name}${labels.length === 0 ? '' : `{${labels.join(',')}}`} ${Number.isFinite(sample.value) ? sample.value : 0}`)
    }
  }
  return lines.join('\n') + '\n'
}

/** One sample's value in a rendered text, for tests and the CLI: `valueOf(text, 'x_total', {type: 'asset'})`. */
export function metricValue (text: string, name: string, labels: Labels = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`).join(',')
  const prefix = wanted === '' ? `${name} ` : `${name}{${wanted}} `
  const line = text.split('\n').find((candidate) => candidate.startsWith(prefix))
  return line === undefined ? undefined : Number(line.slice(prefix.length))
}
