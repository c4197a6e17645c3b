/**
 * Skills that compete for the same request: pairs of listed entries whose `description` + `when_to_use` say nearly the
 * same thing, by a plain lexical similarity (the Dice coefficient of their content words, light stemming, no
 * stop words), with the phrases (word pairs) they share. Computed offline from the listing text; no model, no network.
 */
import type { Listing } from './listing';
import type { ClaudeEntry } from './types';

/** One entry as the listing shows it. */
export interface OverlapItem {
  /** What identifies it to the caller (a path). */
  id: string;
  /** The command (`/deploy`, `/my-plugin:review`). */
  invocation: string;
  /** `description` + `when_to_use` as the listing holds them. */
  text: string;
}

export interface OverlapPair {
  a: OverlapItem;
  b: OverlapItem;
  /** Dice coefficient of the content words, 0…1. */
  score: number;
  /** Phrases (two content words in a row) both texts hold, most first, at most 8. */
  shared: string[];
}

/** Pairs at or above this similarity compete. Calibrated on real skills: the Discord / Telegram / iMessage `access` skills (0.94) compete, neighbours such as the python- vs typescript-scaffold commands (0.78), python- vs javascript-testing-patterns (0.59) or iOS vs Android design (0.59) do not. */
export const OVERLAP_THRESHOLD = 0.8;

const STOP = new Set(('a an the and or of to in for on with by is are be as at from that this it its use when your you user users claude skill skills using used uses via any all into can will should must not do does need needs e g eg etc such like about also more other than their them they these those then there which who what how if while over under per each both only just so some one two new make makes making help helps including include includes provide provides based work working works want wants ask asks asked').split(' '));

/** Content words in order: lower case, no stop words or words under 3 letters, plural `s`/`ies` folded. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[a-z0-9]+(?:[-'][a-z0-9]+)*/g) ?? []) {
    if (raw.length < 3 || STOP.has(raw)) continue;
    let w = raw;
    if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
    else if (w.endsWith('s') && !w.endsWith('ss') && w.length > 3) w = w.slice(0, -1);
    out.push(w);
  }
  return out;
}

interface Features {
  words: Set<string>;
  phrases: Map<string, number>;
}

function features(text: string): Features {
  const w = contentWords(text);
  const phrases = new Map<string, number>();
  for (let i = 0; i + 1 < w.length; i++) {
    const p = `${w[i]} ${w[i + 1]}`;
    phrases.set(p, (phrases.get(p) ?? 0) + 1);
  }
  return { words: new Set(w), phrases };
}

/** Similarity of two texts (0…1) and their shared phrases. */
export function descriptionSimilarity(a: string, b: string): { score: number; shared: string[] } {
  return compare(features(a), features(b));
}

function compare(fa: Features, fb: Features): { score: number; shared: string[] } {
  if (!fa.words.size || !fb.words.size) return { score: 0, shared: [] };
  let inter = 0;
  for (const w of fa.words) if (fb.words.has(w)) inter++;
  const score = (2 * inter) / (fa.words.size + fb.words.size);
  const shared = [...fa.phrases.keys()].filter((p) => fb.phrases.has(p)).sort((x, y) => (fb.phrases.get(y)! + fa.phrases.get(y)!) - (fb.phrases.get(x)! + fa.phrases.get(x)!) || (x < y ? -1 : 1)).slice(0, 8);
  return { score, shared };
}

/** The pairs of items whose texts compete (score at or above `threshold`), most similar first. */
export function descriptionOverlaps(items: readonly OverlapItem[], threshold = OVERLAP_THRESHOLD): OverlapPair[] {
  const feats = items.map((i) => features(i.text));
  const pairs: OverlapPair[] = [];
  for (let i = 0; i < items.length; i++) {
    if (!feats[i].words.size) continue;
    for (let j = i + 1; j < items.length; j++) {
      // Dice cannot reach the threshold when one set is much smaller than the other.
      const small = Math.min(feats[i].words.size, feats[j].words.size);
      if ((2 * small) / (feats[i].words.size + feats[j].words.size) < threshold) continue;
      const { score, shared } = compare(feats[i], feats[j]);
      if (score >= threshold) pairs.push({ a: items[i], b: items[j], score, shared });
    }
  }
  return pairs.sort((x, y) => y.score - x.score || (x.a.invocation < y.a.invocation ? -1 : 1));
}

/**
 * The competing pairs of one model's listing: entries shown with their description (full or truncated; also those
 * dropped only for the budget, whose descriptions compete as soon as there is room), compared on `description` +
 * `when_to_use`.
 */
export function listingOverlaps(model: { entries: readonly ClaudeEntry[] }, listing: Listing, threshold = OVERLAP_THRESHOLD): OverlapPair[] {
  const byPath = new Map(model.entries.map((e) => [e.path, e]));
  const items: OverlapItem[] = [];
  for (const l of listing.entries) {
    if (l.shown !== 'full' && l.shown !== 'truncated' && l.shown !== 'dropped') continue;
    const e = byPath.get(l.path);
    if (!e) continue;
    const text = [e.meta.description, e.meta.whenToUse].filter((t): t is string => typeof t === 'string').join(' ');
    if (text.trim()) items.push({ id: l.path, invocation: l.invocation, text });
  }
  return descriptionOverlaps(items, threshold);
}
