// Tiny DOM builders. Text always goes in through textContent and attributes through setAttribute, so
// memory text (which may contain HTML, markdown links or `command:` URIs) stays inert text.
type Child = Node | string | false | null | undefined;

export interface Props {
  class?: string;
  text?: string;
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (ev: HTMLElementEventMap[K]) => void };
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.text !== undefined) el.textContent = props.text;
  setAttrs(el, props.attrs);
  if (props.on) {
    for (const [name, fn] of Object.entries(props.on)) el.addEventListener(name, fn as EventListener);
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === false || c === null || c === undefined) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

function setAttrs(el: Element, attrs?: Props['attrs']): void {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
}

export function icon(name: string, extra = ''): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}${extra ? ' ' + extra : ''}`, attrs: { 'aria-hidden': 'true' } });
}

/** An icon button with an accessible name and a tooltip. */
export function iconButton(name: string, label: string, onClick: (ev: MouseEvent) => void, extra?: Props['attrs']): HTMLButtonElement {
  return h('button', {
    class: 'icon-button',
    attrs: { type: 'button', 'aria-label': label, title: label, ...extra },
    on: { click: ev => { ev.stopPropagation(); onClick(ev); } },
  }, icon(name));
}

export function textButton(label: string, onClick: () => void, iconName?: string, primary = false): HTMLButtonElement {
  return h('button', { class: primary ? 'text-button primary' : 'text-button', attrs: { type: 'button' }, on: { click: ev => { ev.stopPropagation(); onClick(); } } },
    iconName ? icon(iconName) : null, h('span', { text: label }));
}

const SVG_NS = 'http://www.w3.org/2000/svg';
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  append(el, children);
  return el;
}

export function clear(el: Element): void {
  el.replaceChildren();
}
