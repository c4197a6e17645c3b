/** Text helpers for views (vscode-free, unit-tested); skill names live in core/skillmd/names.ts, fix helpers in core/fixes. */

/** Shortens text to `max` characters on a word boundary, with an ellipsis. */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
