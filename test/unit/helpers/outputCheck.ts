// What no CLI output may carry: a control character other than the line feeds and tabs it writes itself, or (outside
// `--format github`, whose annotations are its purpose) a line that starts a GitHub Actions workflow command.

/** Why `out` (printed in `format`) is unsafe, or undefined. */
export function outputViolation(out: string, format: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  const bad = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.exec(out);
  if (bad) return `control character U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${bad.index}`;
  for (const line of out.split('\n')) {
    if (!/^\s*::/.test(line)) continue;
    if (format !== 'github') return `a line starts a workflow command: ${line.slice(0, 80)}`;
    if (!/^::(error|warning|notice) file=[^:,\n]*,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[^:,\n]*::/.test(line)) return `a workflow command Skillflow did not write: ${line.slice(0, 80)}`;
  }
  return undefined;
}
