type Child = Node | string | number | null | undefined | false
type Props = Record<string, string | number | boolean | undefined | ((event: Event) => void)>

/**
 * Builds an element: `h('button', { type: 'button', onclick: save }, 'Save')`. Keys starting with `on`
 * are listeners; `true` sets an attribute empty, `false` and `undefined` leave it out. Never a `style`
 * attribute: the page's policy refuses inline styles, so looks come from classes.
 */
export function h<K extends keyof HTMLElementTagNameMap> (tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [key, value] of Object.entries(props)) {
    if (typeof value === 'function') element.addEventListener(key.slice(2), value)
    else if (value === true) element.setAttribute(key, '')
    else if (value !== false && value !== undefined) element.setAttribute(key, String(value))
  }
  element.append(...children.filter((child): child is Node | string | number => child !== null && child !== undefined && child !== false).map((child) => typeof child === 'number' ? String(child) : child))
  return element
}

let fieldIds = 0
/** A label and its control, tied by a fresh id (`for`/`id`), in one wrapper. */
export function field (label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string): HTMLElement {
  if (control.id === '') control.id = `field-${++fieldIds}`
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hint === undefined ? null : h('small', {}, hint))
}

/** A live line under a form that says what happened ("Saved."), read out by screen readers. */
export function statusLine (): HTMLElement {
  return h('p', { class: 'status-line', role: 'status' })
}
