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

/** Incremental splitter for streamed deltas: feed raw content, get the new answer/thinking text to show. */
export class ThinkStream {
  private raw = '';
  private shownAnswer = '';
  private shownThinking = '';

  /** Adds a raw delta; returns what is new in answer and thinking (a possible partial tag is held back). */
  push(delta: string): { answer: string; thinking: string } {
    this.raw += delta;
    const s = splitThink(this.raw);
    let answer = s.answer;
    // Hold back a trailing fragment that could be the start of a tag ("<", "<th", "</thi").
    for (const tag of [OPEN, CLOSE]) {
      for (let k = Math.min(tag.length - 1, answer.length); k > 0; k--) {
        if (answer.endsWith(tag.slice(0, k))) {
          answer = answer.slice(0, -k);
          break;
        }
      }
    }
    const out = { answer: '', thinking: '' };
    if (answer.startsWith(this.shownAnswer)) {
      out.answer = answer.slice(this.shownAnswer.length);
      this.shownAnswer = answer;
    }
    if (s.thinking.startsWith(this.shownThinking)) {
      out.thinking = s.thinking.slice(this.shownThinking.length);
      this.shownThinking = s.thinking;
    }
    return out;
  }

  /** Everything received so far, split. */
  result(): ThinkSplit {
    return splitThink(this.raw);
  }
}
