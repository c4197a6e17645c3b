/**
 * Format-preserving edits of a JSON object's top-level properties: only the bytes of the properties
 * changed are rewritten; every other byte (numbers such as `12345678901234567890`, `1e400` or `-0`,
 * whitespace, key order, line endings) stays as it was. Built on jsonc-parser's tree and
 * `applyEdits` (one parse per file; the replacements are the edits `modify` makes without formatting);
 * new values are laid out like their neighbours. Linear in the size of the text.
 */
import { type Edit, type Node, applyEdits, parseTree } from 'jsonc-parser';

export type JsonEditResult = { ok: true; text: string } | { ok: false; message: string };

interface Doc {
  bom: string;
  body: string;
  root: Node;
  eol: string;
}

function open(text: string, fileName: string): Doc | string {
  const bom = text.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  const body = bom ? text.slice(1) : text;
  const errors: Array<{ error: number; offset: number; length: number }> = [];
  const root = parseTree(body, errors, { allowTrailingComma: false, disallowComments: true });
  if (!root || errors.length || root.type !== 'object') return `${fileName} is not a valid JSON object`;
  return { bom, body, root, eol: body.includes('\r\n') ? '\r\n' : '\n' };
}

/** The property nodes named `key` (more than one when the file repeats a key). */
function propertiesNamed(root: Node, key: string): Node[] {
  return (root.children ?? []).filter((p) => p.children?.[0]?.value === key);
}

/** The whitespace from the start of the line holding `offset` up to the first non-blank character. */
function lineIndent(body: string, offset: number): string {
  let start = offset;
  while (start > 0 && body[start - 1] !== '\n') start--;
  let end = start;
  while (end < body.length && (body[end] === ' ' || body[end] === '\t')) end++;
  return body.slice(start, end);
}

/** How a container's children are laid out: what goes before a new child, and how nested lines are indented. */
function layoutOf(doc: Doc, container: Node): { multiline: boolean; lead: string; childIndent: string; unit: string } {
  const { body } = doc;
  const parentIndent = lineIndent(body, container.offset);
  const first = container.children?.[0];
  if (first) {
    const inner = body.slice(container.offset + 1, first.offset);
    const multiline = inner.includes('\n');
    const second = container.children?.[1];
    // Single-line: the space after the comma between the first two children, else the style of the file.
    const lead = multiline ? inner
      : second ? body.slice(first.offset + first.length, second.offset).replace(',', '')
        : inner || (body.slice(0, 4096).includes(', ') || body.slice(0, 4096).includes(': ') ? ' ' : '');
    const childIndent = multiline ? lineIndent(body, first.offset) : parentIndent;
    const unit = multiline && childIndent.length > parentIndent.length && childIndent.startsWith(parentIndent) ? childIndent.slice(parentIndent.length) : '  ';
    return { multiline, lead, childIndent, unit };
  }
  // An empty container: multi-line when the file is.
  const multiline = body.includes('\n');
  const unit = /\n(\t| +)\S/.exec(body.slice(0, 4096))?.[1] ?? '  ';
  const childIndent = parentIndent + unit;
  return { multiline, lead: multiline ? doc.eol + childIndent : '', childIndent, unit };
}

/** `value` as JSON, multi-line and indented like its future neighbours when they are. */
function render(value: unknown, layout: { multiline: boolean; childIndent: string; unit: string }, eol: string): string {
  if (!layout.multiline) return JSON.stringify(value);
  return JSON.stringify(value, null, layout.unit).replace(/\n/g, eol + layout.childIndent);
}

/** The edit that adds `piece` (a rendered property or element) as the container's last child. */
function appendEdit(doc: Doc, container: Node, piece: string): Edit {
  const layout = layoutOf(doc, container);
  const children = container.children ?? [];
  const last = children[children.length - 1];
  if (last) return { offset: last.offset + last.length, length: 0, content: `,${layout.lead}${piece}` };
  // Empty: replace whatever whitespace is inside the brackets.
  const closing = doc.eol + lineIndent(doc.body, container.offset);
  return { offset: container.offset + 1, length: container.length - 2, content: layout.multiline ? `${layout.lead}${piece}${closing}` : piece };
}

function unique(doc: Doc, key: string, fileName: string): Node | undefined | string {
  const found = propertiesNamed(doc.root, key);
  if (found.length > 1) return `${fileName} has the key "${key}" ${found.length} times; fix it by hand first`;
  return found[0];
}

export type TopLevelChange =
  | { set: string; value: unknown }
  /** Appends to the array `append`; an absent or non-array value becomes `[value]`. */
  | { append: string; value: unknown }
  | { remove: string };

/**
 * Applies changes to top-level properties in one pass over the text: values are replaced in place
 * (exactly the old value's bytes), new properties and
 * elements are added after the last one in their container's layout, a removed property takes one
 * comma with it. The changes must name different keys.
 */
export function editTopLevel(text: string, changes: readonly TopLevelChange[], fileName = 'the file'): JsonEditResult {
  const doc = open(text, fileName);
  if (typeof doc === 'string') return { ok: false, message: doc };
  const edits: Edit[] = [];
  const newProperties: Array<[string, unknown]> = [];
  for (const change of changes) {
    const key = 'set' in change ? change.set : 'append' in change ? change.append : change.remove;
    const existing = unique(doc, key, fileName);
    if (typeof existing === 'string') return { ok: false, message: existing };
    if ('remove' in change) {
      if (!existing) return { ok: false, message: `${fileName} has no key "${key}"` };
      edits.push(removalEdit(doc, existing));
    } else if ('append' in change) {
      const array = existing?.children?.[1];
      if (array?.type === 'array') edits.push(appendEdit(doc, array, render(change.value, layoutOf(doc, array), doc.eol)));
      else if (existing) edits.push(replaceEdit(existing, [change.value]));
      else newProperties.push([key, [change.value]]);
    } else if (existing) edits.push(replaceEdit(existing, change.value));
    else newProperties.push([key, change.value]);
  }
  if (newProperties.length) {
    const layout = layoutOf(doc, doc.root);
    const first = doc.root.children?.[0];
    const colon = first?.children?.[1] ? doc.body.slice(first.children[0].offset + first.children[0].length, first.children[1].offset) : layout.multiline ? ': ' : ':';
    const pieces = newProperties.map(([key, value]) => `${JSON.stringify(key)}${colon}${render(value, layout, doc.eol)}`);
    // One insertion for all of them: the first is placed like any new last child, the others follow it.
    const edit = appendEdit(doc, doc.root, pieces[0]);
    const rest = pieces.slice(1).map((piece) => `,${layout.lead}${piece}`).join('');
    const at = edit.content.lastIndexOf(pieces[0]) + pieces[0].length;
    edit.content = edit.content.slice(0, at) + rest + edit.content.slice(at);
    edits.push(edit);
  }
  return { ok: true, text: doc.bom + applyEdits(doc.body, edits) };
}

/**
 * Replaces exactly the bytes of a property's value: what jsonc-parser's `modify` does without formatting
 * options, taken from the tree already parsed (`modify` would parse the whole text again for each change).
 */
function replaceEdit(property: Node, value: unknown): Edit {
  const old = property.children![1];
  return { offset: old.offset, length: old.length, content: JSON.stringify(value) };
}

function removalEdit(doc: Doc, existing: Node): Edit {
  const siblings = doc.root.children ?? [];
  const index = siblings.indexOf(existing);
  let from: number;
  let to: number;
  if (siblings.length === 1) {
    from = doc.root.offset + 1;
    to = doc.root.offset + doc.root.length - 1;
  } else if (index > 0) {
    const previous = siblings[index - 1];
    from = previous.offset + previous.length;
    to = existing.offset + existing.length;
  } else {
    from = existing.offset;
    to = siblings[1].offset;
  }
  return { offset: from, length: to - from, content: '' };
}

/** Sets top-level property `key` to `value` (added as the last property when absent). */
export function setProperty(text: string, key: string, value: unknown, fileName = 'the file'): JsonEditResult {
  return editTopLevel(text, [{ set: key, value }], fileName);
}

/** Appends `value` to the top-level array `key`; an absent or non-array `key` becomes `[value]`. */
export function appendToArray(text: string, key: string, value: unknown, fileName = 'the file'): JsonEditResult {
  return editTopLevel(text, [{ append: key, value }], fileName);
}

/** Removes top-level property `key` with its separating comma, keeping the layout of the others. */
export function removeProperty(text: string, key: string, fileName = 'the file'): JsonEditResult {
  return editTopLevel(text, [{ remove: key }], fileName);
}
