/** Name helpers for quick fixes (vscode-free, unit-tested). */

/** Converts any text to a skill name: NFKC, camelCase split, lower-case, `a-z0-9` runs joined by single hyphens. */
export function toKebabCase(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A YAML plain scalar that contains `: ` (or starts with a YAML indicator) as a single-quoted scalar. */
export function yamlSingleQuote(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Shortens text to `max` characters on a word boundary, with an ellipsis. */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
