import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoadParams, PromptPiece } from '../../src/main/enhance/local-llm/llm-protocol.ts';
import type { LocalLlm } from '../../src/main/enhance/local-llm/local-llm.ts';

/*
 * A single-slot OpenAI-compatible chat server on the real engine, as llama-server runs with one slot (and
 * Ollama with one runner): every request, whatever its mode, goes to the same KV-cache sequence, and the
 * longest common token prefix with the previous request is reused (llama.cpp tools/server/README.md,
 * `cache_prompt`). The prompt is rendered with ChatML and tokenized as one text per message, as a server
 * does; usage reports `prompt_tokens_details.cached_tokens`. For benchmarks: `answerTokens` makes every
 * answer exactly that long (end-of-turn ignored), except a 1-token request (the key-down warm-up).
 */

/** A running slot server. */
export interface SlotServer {
  readonly baseURL: string;
  /** Requests answered, and the warm-ups among them (max_tokens 1). */
  readonly counts: { requests: number; warmUps: number };
  close(): Promise<void>;
}

interface ChatBody {
  messages?: { role: string; content: string }[];
  max_tokens?: number;
  stream?: boolean;
}

function pieces(messages: readonly { role: string; content: string }[]): PromptPiece[] {
  const out: PromptPiece[] = [];
  for (const m of messages) out.push({ text: '<|im_start|>', special: true }, { text: `${m.role}\n${m.content}` }, { text: '<|im_end|>', special: true }, { text: '\n' });
  out.push({ text: '<|im_start|>', special: true }, { text: 'assistant\n' });
  return out;
}

/** Starts the server on 127.0.0.1 over `llm` loaded with `params`. */
export async function startSlotServer(llm: LocalLlm, params: LoadParams, opts: { answerTokens: number }): Promise<SlotServer> {
  const counts = { requests: 0, warmUps: 0 };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(raw) as ChatBody;
        const warm = body.max_tokens === 1;
        counts.requests++;
        if (warm) counts.warmUps++;
        const stream = body.stream === true;
        if (stream) res.writeHead(200, { 'content-type': 'text/event-stream' });
        const send = (obj: unknown): void => void res.write(`data: ${JSON.stringify(obj)}\n\n`);
        let text = '';
        const r = await llm.chat(params, {
          key: 'slot', pieces: pieces(body.messages ?? []), gen: { maxTokens: warm ? 1 : opts.answerTokens, temperature: 0, ignoreEos: true },
          onDelta: (d) => {
            text += d;
            if (stream) send({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: d }, finish_reason: null }] });
          },
        });
        const usage = { prompt_tokens: r.promptTokens, completion_tokens: r.completionTokens, total_tokens: r.promptTokens + r.completionTokens, prompt_tokens_details: { cached_tokens: r.cachedTokens } };
        if (stream) {
          send({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'length' }] });
          send({ id: 'c', object: 'chat.completion.chunk', choices: [], usage });
          res.end('data: [DONE]\n\n');
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'length' }], usage }));
        }
      })().catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(err) } }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    counts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
