/** Text helpers for quick fixes and views (vscode-free, unit-tested); skill names live in core/skillmd/names.ts. */

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
