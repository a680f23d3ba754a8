/** Request schemas and response types of learning from edits (`learning:*`), spread into contract.ts. */
import { z } from 'zod';

/** Phantom type marker (contract.ts's `returns`, repeated to avoid an import cycle). */
const marker = <T>(): { readonly __type?: T } => ({});
/** Longest text an edit is compared on (a dictation is far shorter; the extractor stops at 5,000 characters). */
const maxEditText = 20_000;
const editText = z.string().max(maxEditText, `must be at most ${maxEditText} characters`);
const term = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

/** A pair proposed from an edit: `homophone` (Chinese written with the wrong characters of the same sound) or `term`. */
export interface LearnProposal {
  readonly wrong: string;
  readonly right: string;
  readonly kind: 'homophone' | 'term';
}

/** What accepting a proposal did: the pair, and whether a replacement rule was written for "always". */
export interface LearnAcceptResult {
  readonly pair: { readonly id: number; readonly wrong: string; readonly right: string };
  /** `added`: a replacement rule too; `unavailable`: "always" was asked but rules cannot be written here; `none`: not asked. */
  readonly rule: 'added' | 'unavailable' | 'none';
}

/** Channel map of the learning feature; contract.ts spreads it in. */
export const learningContract = {
  'learning:propose': { request: z.strictObject({ before: editText, after: editText }), response: marker<readonly LearnProposal[]>() },
  'learning:accept': {
    request: z.strictObject({ wrong: term, right: term, kind: z.enum(['homophone', 'term']).optional(), always: z.boolean() }),
    response: marker<LearnAcceptResult>(),
  },
} as const;
