/**
 * Separates `<think>…</think>` reasoning from the answer. Reasoning models served through
 * OpenAI-compatible endpoints (Qwen3 on Ollama, DeepSeek-R1 distills, vLLM) put their reasoning in the
 * content inside think tags; some drop the opening tag, so a lone `</think>` ends an implicit block.
 */

/** Answer and reasoning of a complete (or partial) model output. */
export interface ThinkSplit {
  readonly answer: string;
  readonly thinking: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';

/** Splits a whole output; an unterminated `<think>` puts everything after it in `thinking`. */
export function splitThink(text: string): ThinkSplit {
  let answer = '';
  let thinking = '';
  let rest = text;
  const firstClose = rest.indexOf(CLOSE);
  const firstOpen = rest.indexOf(OPEN);
  if (firstClose !== -1 && (firstOpen === -1 || firstClose < firstOpen)) {
    thinking += rest.slice(0, firstClose);
    rest = rest.slice(firstClose + CLOSE.length);
  }
  for (;;) {
    const open = rest.indexOf(OPEN);
    if (open === -1) {
      answer += rest;
      break;
    }
    answer += rest.slice(0, open);
    const close = rest.indexOf(CLOSE, open + OPEN.length);
    if (close === -1) {
      thinking += (thinking ? '\n' : '') + rest.slice(open + OPEN.length);
      break;
    }
    thinking += (thinking ? '\n' : '') + rest.slice(open + OPEN.length, close);
    rest = rest.slice(close + CLOSE.length);
  }
  return { answer: answer.replace(/^\s+/, ''), thinking: thinking.trim() };
}

/** What `ThinkStream.push` adds to the display. `reset`: what was shown as the answer was reasoning after all (a lone `</think>` arrived): clear it, then show these. */
export interface ThinkDelta {
  readonly answer: string;
  readonly thinking: string;
  readonly reset?: true;
}

/**
 * The most a model may stream for an input of `inputChars` characters, answer and reasoning together.
 * A dictation's answer is about as long as its input (a translation a few times longer) and reasoning
 * models think for tens of thousands of characters; a stream past this is a runaway and is cut off, so a
 * misbehaving server cannot keep the main process busy (a 200 MB stream once stalled it for seconds).
 */
export function responseCapChars(inputChars: number): number {
  return RESPONSE_CAP_BASE_CHARS + Math.max(0, inputChars) * RESPONSE_CAP_PER_INPUT_CHAR;
}
/** Room for reasoning, whatever the input. */
export const RESPONSE_CAP_BASE_CHARS = 200_000;
/** Per input character (translations and rewrites grow; nothing sane grows more). */
export const RESPONSE_CAP_PER_INPUT_CHAR = 16;

type Phase = 'start' | 'answer' | 'think';

/** The longest end of `text` that could be the start of one of `tags` (held back until the next delta). */
function partialTagAt(text: string, tags: readonly string[]): number {
  for (let k = Math.min(text.length, CLOSE.length - 1); k > 0; k--) {
    const end = text.slice(-k);
    if (tags.some((t) => t.length > k && t.startsWith(end))) return k;
  }
  return 0;
}

/**
 * Incremental splitter for streamed deltas: feed raw content, get the new answer/thinking text to show.
 * Linear in the stream: each delta is scanned once (plus at most 7 held-back characters that may be the
 * start of a tag), never the whole answer again. `result()` always equals `splitThink` of everything
 * pushed so far.
 */
export class ThinkStream {
  /** start: no tag yet (the text is answer unless a `</think>` comes first); answer: outside a block; think: inside one. */
  private phase: Phase = 'start';
  /** Held-back end of the input that may be the start of a tag. */
  private carry = '';
  /** Raw text of the start phase (it becomes reasoning if a lone `</think>` shows up). */
  private startRaw = '';
  /** The answer as shown: leading whitespace removed. */
  private answer = '';
  /** The reasoning as shown: leading whitespace removed (`result` trims the end too). */
  private thinking = '';
  /** Whether any reasoning text (even blank) was seen: later blocks are joined with a newline. */
  private thinkingSeen = false;

  /** Adds a raw delta; returns what is new in answer and thinking (a possible partial tag is held back). */
  push(delta: string): ThinkDelta {
    const out = { answer: '', thinking: '', reset: false };
    let text = this.carry + delta;
    this.carry = '';
    while (text !== '') {
      if (this.phase === 'think') {
        const close = text.indexOf(CLOSE);
        if (close === -1) {
          const hold = partialTagAt(text, [CLOSE]);
          out.thinking += this.addThinking(text.slice(0, text.length - hold));
          this.carry = text.slice(text.length - hold);
          return this.done(out);
        }
        out.thinking += this.addThinking(text.slice(0, close));
        this.phase = 'answer';
        text = text.slice(close + CLOSE.length);
        continue;
      }
      if (this.phase === 'answer') {
        const open = text.indexOf(OPEN);
        if (open === -1) {
          const hold = partialTagAt(text, [OPEN]);
          out.answer += this.addAnswer(text.slice(0, text.length - hold));
          this.carry = text.slice(text.length - hold);
          return this.done(out);
        }
        out.answer += this.addAnswer(text.slice(0, open));
        out.thinking += this.openBlock();
        this.phase = 'think';
        text = text.slice(open + OPEN.length);
        continue;
      }
      // start: whichever tag comes first decides what the text so far was.
      const open = text.indexOf(OPEN);
      const close = text.indexOf(CLOSE);
      if (close !== -1 && (open === -1 || close < open)) {
        // A lone `</think>`: everything so far was reasoning, shown as the answer until now.
        const raw = this.startRaw + text.slice(0, close);
        this.startRaw = '';
        this.answer = '';
        out.answer = '';
        out.reset = true;
        this.thinking = '';
        out.thinking = this.addThinking(raw);
        this.phase = 'answer';
        text = text.slice(close + CLOSE.length);
        continue;
      }
      if (open !== -1) {
        out.answer += this.addAnswer(text.slice(0, open));
        this.startRaw = '';
        out.thinking += this.openBlock();
        this.phase = 'think';
        text = text.slice(open + OPEN.length);
        continue;
      }
      const hold = partialTagAt(text, [OPEN, CLOSE]);
      const kept = text.slice(0, text.length - hold);
      this.startRaw += kept;
      out.answer += this.addAnswer(kept);
      this.carry = text.slice(text.length - hold);
      return this.done(out);
    }
    return this.done(out);
  }

  /** Everything received so far, split (held-back characters included). */
  result(): ThinkSplit {
    let answer = this.answer;
    let thinking = this.thinking;
    if (this.carry !== '') {
      if (this.phase === 'think') thinking = leadTrimmed(thinking, this.carry);
      else answer = leadTrimmed(answer, this.carry);
    }
    return { answer, thinking: thinking.trimEnd() };
  }

  private done(out: { answer: string; thinking: string; reset: boolean }): ThinkDelta {
    return out.reset ? { answer: out.answer, thinking: out.thinking, reset: true } : { answer: out.answer, thinking: out.thinking };
  }

  /** Starts a `<think>` block: joined to earlier reasoning with a newline, as `splitThink` does. */
  private openBlock(): string {
    return this.thinkingSeen ? this.addThinking('\n') : '';
  }

  // Appends only: the accumulated strings are never re-read (a slice of them would flatten the rope, O(n) a delta).
  private addAnswer(text: string): string {
    const shown = this.answer === '' ? text.trimStart() : text;
    this.answer += shown;
    return shown;
  }

  private addThinking(text: string): string {
    if (text !== '') this.thinkingSeen = true;
    const shown = this.thinking === '' ? text.trimStart() : text;
    this.thinking += shown;
    return shown;
  }
}

/** `shown + more` with leading whitespace removed, given that `shown` already has none. */
function leadTrimmed(shown: string, more: string): string {
  return shown === '' ? more.trimStart() : shown + more;
}
