/** Checks and normalises one answer against its question (options, Allow-Other, yes/no). Never throws. */
import type { ContextQuestion } from './context';

export type AnswerCheck = { ok: true; value: string } | { ok: false; message: string };

/**
 * Splits a multi-choice answer on `, ` (a context file joins items with `, `); empty items are dropped.
 * With `options`, an item that is not an option but contains a bare `,` is split further (`a,b`).
 */
export function splitMulti(answer: string, options?: readonly string[]): string[] {
  const items = answer.split(/,(?:[ \t]+|$)/).map((s) => s.trim()).filter((s) => s !== '');
  if (!options) return items;
  return items.flatMap((item) => (matchOption(options, item) === undefined && item.includes(',') ? item.split(',').map((s) => s.trim()).filter((s) => s) : [item]));
}

/** `yes` / `no` for the spellings people use, else undefined. */
export function normaliseConfirm(answer: string): 'yes' | 'no' | undefined {
  const v = answer.trim().toLowerCase().replace(/[.!]$/, '');
  if (/^(yes|y|true|on|ok|1)$/.test(v)) return 'yes';
  if (/^(no|n|false|off|0)$/.test(v)) return 'no';
  return undefined;
}

function matchOption(options: readonly string[], value: string): string | undefined {
  const v = value.trim();
  return options.find((o) => o === v) ?? options.find((o) => o.toLowerCase() === v.toLowerCase());
}

function quote(s: string): string {
  const one = s.replace(/[\r\n]+/g, ' ');
  return `"${one.length > 80 ? `${one.slice(0, 77)}...` : one}"`;
}

/** Checks `answer` for `question` and returns the value to write (options in their written spelling, yes/no, multi joined with `, `). */
export function checkAnswer(question: Pick<ContextQuestion, 'id' | 'type' | 'options' | 'allowOther'>, answer: string): AnswerCheck {
  if (typeof answer !== 'string' || answer.trim() === '') return { ok: false, message: `The answer to ${question.id} is empty` };
  const value = answer.trim();
  const choices = question.options;
  switch (question.type) {
    case 'confirm': {
      const yn = normaliseConfirm(value);
      return yn ? { ok: true, value: yn } : { ok: false, message: `The answer to ${question.id} must be yes or no (got ${quote(value)})` };
    }
    case 'single': {
      if (choices.length === 0) return { ok: true, value };
      const option = matchOption(choices, value);
      if (option !== undefined) return { ok: true, value: option };
      if (question.allowOther) return { ok: true, value };
      return { ok: false, message: `The answer to ${question.id} must be one of: ${choices.join(', ')} (got ${quote(value)})` };
    }
    case 'multi': {
      const items = splitMulti(value, choices);
      if (items.length === 0) return { ok: false, message: `The answer to ${question.id} is empty` };
      const out: string[] = [];
      for (const item of items) {
        const option = choices.length ? matchOption(choices, item) : item;
        if (option === undefined && !question.allowOther) {
          return { ok: false, message: `The answer to ${question.id} must be chosen from: ${choices.join(', ')} (got ${quote(item)})` };
        }
        const v = option ?? item;
        if (!out.includes(v)) out.push(v);
      }
      return { ok: true, value: out.join(', ') };
    }
    default:
      return { ok: true, value };
  }
}
