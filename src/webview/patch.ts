/**
 * Updates a live DOM subtree to match new markup in place (browser only; the webviews bundle it). Elements are matched
 * by key — `data-id` with `data-action` (a row, a row's button), else `id`, else `aria-labelledby` (a section) — and
 * otherwise by position and tag. A matched element keeps its identity: only changed attributes, text and children are
 * touched, so a row or button under the pointer or holding the focus stays the same element, and the scroll position
 * stays where it is. Nodes that no longer exist are removed; new ones are inserted where the markup puts them.
 */

function keyOf(node: Node): string | undefined {
  if (node.nodeType !== Node.ELEMENT_NODE) return undefined;
  const el = node as Element;
  const id = el.getAttribute('data-id');
  const action = el.getAttribute('data-action');
  if (id !== null || action !== null) return `${el.tagName}|${id ?? ''}|${action ?? ''}`;
  if (el.id) return `${el.tagName}#${el.id}`;
  const labelled = el.getAttribute('aria-labelledby');
  return labelled ? `${el.tagName}@${labelled}` : undefined;
}

function sameKind(a: Node, b: Node): boolean {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName;
}

function patchAttributes(target: Element, source: Element): void {
  for (const { name } of Array.from(target.attributes)) if (!source.hasAttribute(name)) target.removeAttribute(name);
  for (const { name, value } of Array.from(source.attributes)) if (target.getAttribute(name) !== value) target.setAttribute(name, value);
  // A list option's selection is state once the user has picked: follow the markup.
  if (target instanceof HTMLOptionElement) target.selected = source.hasAttribute('selected');
}

/** Makes `target` match `source`; returns the node now in the document (a new one when the kinds differ). */
function patchNode(target: Node, source: Node): Node {
  if (!sameKind(target, source) || keyOf(target) !== keyOf(source)) {
    target.parentNode?.replaceChild(source, target);
    return source;
  }
  if (target.nodeType === Node.ELEMENT_NODE) {
    patchAttributes(target as Element, source as Element);
    patchChildren(target, source);
  } else if (target.nodeValue !== source.nodeValue) {
    target.nodeValue = source.nodeValue;
  }
  return target;
}

/** Makes the children of `target` match those of `source` (whose nodes may be moved into `target`). */
export function patchChildren(target: Node, source: Node): void {
  const wanted = Array.from(source.childNodes);
  const existing = Array.from(target.childNodes);
  const keyed = new Map<string, Node>();
  const unkeyed: Node[] = [];
  for (const n of existing) {
    const key = keyOf(n);
    if (key === undefined) unkeyed.push(n);
    else if (!keyed.has(key)) keyed.set(key, n);
  }
  // Which existing node each wanted one becomes: by key, else the next unkeyed node if it is of the same kind.
  const matches = wanted.map((next) => {
    const key = keyOf(next);
    if (key !== undefined) {
      const match = keyed.get(key);
      keyed.delete(key);
      return match;
    }
    return unkeyed.length && sameKind(unkeyed[0], next) ? unkeyed.shift() : undefined;
  });
  // Nodes that stay are removed from around, not moved: moving an element drops its focus.
  const kept = new Set(matches);
  for (const n of existing) if (!kept.has(n)) target.removeChild(n);
  wanted.forEach((next, i) => {
    const match = matches[i];
    const at = target.childNodes[i] ?? null;
    if (!match) { target.insertBefore(next, at); return; }
    if (match !== at) target.insertBefore(match, at);
    patchNode(match, next);
  });
}
