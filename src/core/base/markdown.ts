/**
 * Values read from files (names, tools, paths, descriptions) put into Markdown that VS Code renders (tooltips): shown
 * as text, never as link markup, an image fetched on hover, HTML, emphasis or a `$(icon)`.
 */

/** `text` with every Markdown punctuation escaped, `$` (a codicon) and `&` (an entity) too; line breaks become spaces. */
export function mdText(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>$~&]/g, '\\$&').replace(/\r\n?|\n/g, ' ');
}

/** `text` as one inline code span, whatever backticks it holds (line breaks become spaces). */
export function mdCode(text: string): string {
  const flat = text.replace(/\r\n?|\n/g, ' ');
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  // A space pads the content only where a backtick or a space at its edge needs it (CommonMark strips one each side).
  const pad = /^[` ]|[` ]$/.test(flat) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
