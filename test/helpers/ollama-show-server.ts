import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server answering like Ollama's native API for the context-window lookup: `POST /api/show`
 * (model_info with `<arch>.context_length`, `parameters` text with an optional `num_ctx` line, as in
 * https://github.com/ollama/ollama/blob/main/docs/api.md#show-model-information), `GET /api/ps` (running
 * models with their `context_length`) and an OpenAI-style `GET /v1/models` list whose entries may carry
 * OpenRouter's `context_length`. Counts every request by path.
 */
export interface OllamaModelSpec {
  readonly arch: string;
  readonly contextLength: number;
  readonly numCtx?: number;
  /** Set: the model is loaded with this context (shown by /api/ps). */
  readonly loadedContext?: number;
}

export interface OllamaShowServer {
  readonly baseURL: string;
  readonly hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startOllamaShowServer(models: Record<string, OllamaModelSpec>, list: Record<string, unknown>[] = []): Promise<OllamaShowServer> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    hits.set(url, (hits.get(url) ?? 0) + 1);
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const send = (status: number, json: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && url === '/api/show') {
        const name = (JSON.parse(body || '{}') as { model?: string }).model ?? '';
        const m = models[name];
        if (!m) return send(404, { error: `model '${name}' not found` });
        const parameters = [m.numCtx !== undefined ? `num_ctx                        ${m.numCtx}` : '', 'stop                           "<|im_end|>"'].filter((l) => l !== '').join('\n');
        return send(200, { modelfile: '# Modelfile', parameters, template: '{{ .Prompt }}', details: { family: m.arch }, model_info: { 'general.architecture': m.arch, [`${m.arch}.context_length`]: m.contextLength, [`${m.arch}.embedding_length`]: 3584 } });
      }
      if (req.method === 'GET' && url === '/api/ps') {
        return send(200, { models: Object.entries(models).filter(([, m]) => m.loadedContext !== undefined).map(([name, m]) => ({ name, model: name, size: 1, context_length: m.loadedContext })) });
      }
      if (req.method === 'GET' && url === '/v1/models') return send(200, { object: 'list', data: list });
      send(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { baseURL: `http://127.0.0.1:${port}/v1`, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
