import type {ScoreReason, ScoringRules, SocialStatus} from '../../types.js';
import {authorKey} from '../rules.js';

/** The user's keywords, compiled once per cycle: whole words or phrases, any case. */
export function keywordMatcher(rules: ScoringRules): (status: SocialStatus) => ScoreReason[] {
  const entries = Object.entries(rules.keywords).map(([word, effect]) => ({word, effect, pattern: new RegExp(`(?<![\\p{L}\\p{N}])${escape(word)}(?![\\p{L}\\p{N}])`, 'iu')}));
  if (entries.length === 0) return () => [];
  return (status) => {
    const text = `${status.title ?? ''}\n${status.text}\n${status.tags.map((tag) => `#${tag}`).join(' ')}`;
    return entries
      .filter((entry) => entry.pattern.test(text))
      .map((entry) => ({signal: 'keyword', effect: entry.effect, detail: `keyword "${entry.word}" (${signed(entry.effect)})`}));
  };
}

export function authorReason(status: SocialStatus, rules: ScoringRules): ScoreReason | null {
  const effect = rules.authors[authorKey(status.author.handle)];
  return effect === undefined ? null : {signal: 'author', effect, detail: `author @${status.author.handle} (${signed(effect)})`};
}

export function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(Math.round(value * 100) / 100)}`;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
}
