/**
 * `skillflow checkpoint load|update CONTEXT_PATH=<path>` and
 * `skillflow checkpoint answer CONTEXT_PATH=<path> <Qid>=<answer>...` speaking the skill output
 * protocol on stdout. Exit codes: 0 for `STATUS: SUCCESS`, 1 for `STATUS: ERROR`, 2 for bad usage.
 */
import { parseArgs } from '../args';
import { type CliContext, EXIT_OK, EXIT_PROBLEMS, UsageError } from '../context';
import { CHECKPOINT_MESSAGES, checkAnswers, type LoadedCheckpoint, loadCheckpoint, saveAnswers, validateCheckpoint } from '../../core/checkpoint/checkpoint';
import { unansweredQuestions } from '../../core/checkpoint/context';

const SUBCOMMANDS = ['load', 'update', 'answer'] as const;

export const CHECKPOINT_USAGE = `Usage:
  skillflow checkpoint load CONTEXT_PATH=<path>      show a context file's skill, questions and answers
  skillflow checkpoint update CONTEXT_PATH=<path>    check that every question is answered; print the resume invocation
  skillflow checkpoint answer CONTEXT_PATH=<path> <Qid>=<answer>...
                                                     write answers into the file's Answer fields (atomically)
CONTEXT_PATH is resolved against the current directory and must stay inside it.
Prints STATUS: SUCCESS (+ OUTPUT: lines) or STATUS: ERROR + OUTPUT: <message>; exit 0, 1, or 2 on bad usage.
`;

/** One protocol line value: never more than one line, whatever the file holds. */
function oneLine(value: string): string {
  let text = '';
  for (const ch of value.replace(/\r\n|\r|\n/g, ' ')) {
    const c = ch.charCodeAt(0);
    if (c >= 0x20 && c !== 0x7f) text += ch;
    else if (c === 9) text += ' ';
  }
  return text.trim();
}

function success(ctx: CliContext, outputs: Array<[string, string | number | undefined]>): number {
  const lines = outputs.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `  ${k}: ${oneLine(String(v))}`);
  ctx.out(lines.length ? `STATUS: SUCCESS\nOUTPUT:\n${lines.join('\n')}\n` : 'STATUS: SUCCESS\n');
  return EXIT_OK;
}

function failure(ctx: CliContext, message: string): number {
  ctx.out(`STATUS: ERROR\nOUTPUT: ${oneLine(message)}\n`);
  return EXIT_PROBLEMS;
}

function summary(cp: LoadedCheckpoint): Array<[string, string | number | undefined]> {
  const { parsed } = cp;
  const unanswered = unansweredQuestions(parsed);
  return [
    ['SKILL', parsed.skill],
    ['ARGS', parsed.args],
    ['STATUS', parsed.status],
    ['CREATED', parsed.created],
    ['CONTEXT_PATH', cp.relPath],
    ['QUESTIONS', parsed.questions.length],
    ['ANSWERED', parsed.questions.length - unanswered.length],
    ['UNANSWERED', unanswered.join(', ')],
  ];
}

/** Runs `skillflow checkpoint ...` and returns the exit code. */
export function checkpointCommand(ctx: CliContext, args: string[]): number {
  const parsed = parseArgs(args, { flags: {}, positionalName: 'load|update|answer' });
  if (parsed.help) {
    ctx.out(CHECKPOINT_USAGE);
    return EXIT_OK;
  }
  const [sub, ...rest] = parsed.positionals;
  if (!sub) throw new UsageError(`missing subcommand (load, update or answer)\n${CHECKPOINT_USAGE}`);
  if (!(SUBCOMMANDS as readonly string[]).includes(sub)) throw new UsageError(`unknown subcommand '${sub}' (expected load, update or answer)`);

  let contextPath: string | undefined;
  const answers: Record<string, string> = {};
  const order: string[] = [];
  for (const arg of rest) {
    const eq = arg.indexOf('=');
    const key = eq === -1 ? '' : arg.slice(0, eq);
    const value = eq === -1 ? '' : arg.slice(eq + 1);
    if (key === 'CONTEXT_PATH') {
      if (contextPath !== undefined) throw new UsageError('CONTEXT_PATH given more than once');
      contextPath = value;
    } else if (sub === 'answer' && /^Q\d+[A-Za-z]?$/i.test(key)) {
      const id = key.toUpperCase();
      if (id in answers) throw new UsageError(`${id} given more than once`);
      answers[id] = value;
      order.push(id);
    } else {
      throw new UsageError(sub === 'answer' ? `expected CONTEXT_PATH=<path> or <Qid>=<answer>, got '${arg}'` : `expected CONTEXT_PATH=<path>, got '${arg}'`);
    }
  }
  if (contextPath === undefined) throw new UsageError('missing CONTEXT_PATH=<path>');
  if (sub === 'answer' && order.length === 0) throw new UsageError('missing <Qid>=<answer> (e.g. Q1=main)');

  const loaded = loadCheckpoint(ctx.fs, ctx.cwd, contextPath);
  if (!loaded.ok) return failure(ctx, loaded.message);
  const cp = loaded.checkpoint;

  if (sub === 'load') {
    if (!cp.parsed.valid) return failure(ctx, CHECKPOINT_MESSAGES.invalid);
    return success(ctx, summary(cp));
  }
  if (sub === 'update') {
    const valid = validateCheckpoint(cp);
    if (!valid.ok) return failure(ctx, valid.message);
    return success(ctx, [
      ['SKILL', valid.invocation.skill],
      ['ARGS', valid.invocation.args],
      ['RESUME', valid.invocation.prompt],
    ]);
  }
  // answer: check everything first so that a bad answer leaves the file untouched.
  const checked = checkAnswers(cp.parsed, answers);
  if (!checked.ok) return failure(ctx, checked.message);
  const saved = saveAnswers(ctx.fs, cp, answers);
  if (!saved.ok) return failure(ctx, saved.message);
  const after = unansweredQuestions(saved.checkpoint.parsed);
  return success(ctx, [
    ['CONTEXT_PATH', cp.relPath],
    ['ANSWERED', order.join(', ')],
    ['UNANSWERED', after.join(', ')],
  ]);
}
