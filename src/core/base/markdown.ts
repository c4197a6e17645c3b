/**
 * Values read from files (names, tools, paths, descriptions) put into Markdown that VS Code renders (tooltips): shown
 * as text, never as a link, an image fetched on hover, HTML, emphasis or a `$(icon)`.
 */

/** `text` with every Markdown punctuation escaped (a bare `https://` cannot autolink: its `:` is escaped too). */
export function mdText(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>:$~&="'@]/g, '\\$&').replace(/\r\n?|\n/g, ' ');
}

/** `text` as one inline code span, whatever backticks it holds (line breaks become spaces). */
export function mdCode(text: string): string {
  const flat = text.replace(/\r\n?|\n/g, ' ');
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${flat} ${fence}`;
}
