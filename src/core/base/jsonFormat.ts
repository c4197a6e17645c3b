/** The indentation and line ending a JSON text already uses (two spaces and `\n` when it shows none), in the shape
 * `jsonc-parser`'s `modify` takes as `formattingOptions`, so an edit's new lines look like their neighbours. */
export function detectFormatting(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}
